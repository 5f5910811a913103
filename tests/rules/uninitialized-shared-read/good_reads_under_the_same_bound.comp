#version 450
// Writes and reads are bounded by the same row length; the halo is loaded by
// the invocations at the ends; a data-dependent store is covered by its else.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };
shared float values[64];
shared float tile[66];
shared uint flags[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    if (tid < n) values[tid] = x[gid];
    tile[tid + 1] = x[gid];
    if (tid == 0) tile[0] = gid > 0 ? x[gid - 1] : 0.0;
    if (tid == 63) tile[65] = x[gid + 1];
    if (x[gid] > 0.0) flags[tid] = 1u; else flags[tid] = 0u;
    barrier();
    if (tid < n) x[gid] = values[tid] + tile[tid] + tile[tid + 2] + float(flags[63 - tid]);
}
