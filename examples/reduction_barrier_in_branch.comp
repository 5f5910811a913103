#version 450
// Pitfall (seeds: missing synchronization; barriers in the right places): a
// tree reduction whose barrier moved inside `if (tid < s)`. Only the lower
// half of the workgroup reaches it at each step.
// klint: barrier-in-divergent-control-flow, shared-memory-race (the invocations
// that skip the barrier overwrite partial sums others still read)
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float values[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = values[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
            barrier();
        }
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
