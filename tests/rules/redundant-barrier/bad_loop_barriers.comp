#version 450
// A barrier at the top of the loop body, after the one at its bottom: the
// bottom one already keeps the next iteration's tile writes from overtaking
// this iteration's reads.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint n; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0; k < n; ++k) {
        barrier();  // expect: redundant-barrier "since the previous barrier"
        tile[tid] = x[k * 64 + tid];
        barrier();
        acc += tile[63 - tid];
        barrier();
    }
    y[gl_GlobalInvocationID.x] = acc;
}
