#version 450
// The barrier at the top of the loop hangs on the invocation's own id, not on
// the iteration alone: invocation 63 skips it until i passes 63, so nothing
// keeps the next tile's writes from landing while it still reads this one.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint i = 0u; i < 4u; ++i) {
        if (i > l) barrier();  // expect: barrier-in-divergent-control-flow
        tile[l] = x[i * 64u + l];  // expect: shared-memory-race confirmed "invocation 0 writes tile[0] while invocation 63 reads it" // expect-note@+2: "invocation 63 reads tile[0] here"
        barrier();
        acc += tile[63u - l];
    }
    y[gl_GlobalInvocationID.x] = acc;
}
