#version 450
// The old idiom: a memory barrier right before barrier(). The control barrier
// does the waiting, so neither is flagged.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    memoryBarrierShared();
    barrier();
    float left = tile[(tid + 63) % 64];
    groupMemoryBarrier();
    barrier();
    tile[tid] = left;
    memoryBarrier();
    barrier();
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
