#version 450
// A counter of a loop of constant trip count is a constant in each unrolled
// iteration, but the loop may stop early on the data: the value it leaves
// with, used after the loop, is only known at run time.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    float prefix[8];  // expect: private-array-spill inconclusive "'prefix' of 8 floats (32 bytes) is indexed dynamically"
    float s = 0.0;
    uint n = 0u;
    for (; n < 8u; ++n) {
        float v = x[n * 4096u + gid];
        if (v < 0.0) break;
        s += v;
        prefix[n] = s;
    }
    y[gid] = n > 0u ? prefix[n - 1u] : 0.0;
    // expect-note@-1: "indexed here by the counter of a loop whose trip count is only known at run time"
}
