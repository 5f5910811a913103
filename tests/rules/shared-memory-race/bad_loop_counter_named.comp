#version 450
// The read of one iteration meets the write of another: the note names the
// loop counter as the source does (k), not by its SSA id.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
shared float tile[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0u; k < 2u; ++k) {
        tile[l + 64u * k] = x[k * 64u + l];
        acc += tile[127u - l - 64u * k];  // expect: shared-memory-race confirmed "invocation 0 reads tile[63] while invocation 63 writes it" // expect-note@-1: "invocation 63 writes tile[63] here with k = 0 there"
    }
    y[gl_GlobalInvocationID.x] = acc;
}
