#version 450
// 256-bin histogram: per-workgroup bins in shared memory with atomics, then
// one global atomic per bin; each of the 128 invocations keeps two bins.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { uint values[]; };
layout(binding = 1) buffer Bins { uint bins[256]; };
layout(push_constant) uniform P { uint n; };
shared uint local_bins[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint b = tid; b < 256u; b += 128u) local_bins[b] = 0;
    barrier();
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 128) {
        atomicAdd(local_bins[values[i] & 255u], 1u);
    }
    barrier();
    for (uint b = tid; b < 256u; b += 128u) {
        if (local_bins[b] != 0) atomicAdd(bins[b], local_bins[b]);
    }
}
