#version 450
// 256-bin histogram: per-workgroup bins in shared memory with atomics, then
// one global atomic per bin.
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { uint values[]; };
layout(binding = 1) buffer Bins { uint bins[256]; };
layout(push_constant) uniform P { uint n; };
shared uint local_bins[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    local_bins[tid] = 0;
    barrier();
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256) {
        atomicAdd(local_bins[values[i] & 255u], 1u);
    }
    barrier();
    if (local_bins[tid] != 0) atomicAdd(bins[tid], local_bins[tid]);
}
