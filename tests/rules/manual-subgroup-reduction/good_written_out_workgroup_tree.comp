#version 450
// A workgroup tree written out step by step, each step behind a barrier: as
// with the loop, its first step spans more than one subgroup.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
shared float total[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    total[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    if (tid < 64) total[tid] += total[tid + 64];
    barrier();
    if (tid < 32) total[tid] += total[tid + 32];
    barrier();
    if (tid < 16) total[tid] += total[tid + 16];
    barrier();
    if (tid < 8) total[tid] += total[tid + 8];
    barrier();
    if (tid < 4) total[tid] += total[tid + 4];
    barrier();
    if (tid < 2) total[tid] += total[tid + 2];
    barrier();
    if (tid < 1) total[tid] += total[tid + 1];  // invocation 0 reads its own result: no barrier
    if (tid == 0) x[gl_WorkGroupID.x] = total[0];
}
