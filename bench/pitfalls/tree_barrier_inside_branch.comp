#version 450
// A tree reduction whose barrier sits inside the branch that halves the
// active invocations.
// pitfall: barrier-in-divergent-control-flow
// pitfall: shared-memory-race
layout(local_size_x = 128) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float tile[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    tile[tid] = i < p.n ? values[i] : 0.0;
    barrier();
    for (uint s = 64; s > 0; s /= 2) {
        if (tid < s) {
            tile[tid] += tile[tid + s];
            barrier();
        }
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = tile[0];
}
