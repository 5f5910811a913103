#version 450
// A tree reduction that trusts invocations to run in lockstep.
// pitfall: shared-memory-race
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    tile[tid] = i < p.n ? values[i] : 0.0;
    barrier();
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s) tile[tid] += tile[tid + s];
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = tile[0];
}
