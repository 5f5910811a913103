#version 450
// Invocations past the end store nothing, and the reduction reads their
// elements anyway.
// pitfall: uninitialized-shared-read
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n) tile[tid] = values[i];
    barrier();
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s) tile[tid] += tile[tid + s];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = tile[0];
}
