#version 450
// The barrier at the top of the inner loop skips its first iteration, and the
// inner loop starts again at k = 0 on every pass of the outer one: between the
// reads of the last tile of one pass and the writes of the first tile of the
// next there is no barrier.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint pass = 0u; pass < 2u; ++pass) {
        for (uint k = 0u; k < 4u; ++k) {
            if (k > 0u) barrier();
            tile[l] = x[(pass * 4u + k) * 64u + l];  // expect: shared-memory-race confirmed "invocation 0 writes tile[0] while invocation 63 reads it" // expect-note@+2: "invocation 63 reads tile[0] here"
            barrier();
            acc += tile[63u - l];
        }
    }
    y[gl_GlobalInvocationID.x] = acc;
}
