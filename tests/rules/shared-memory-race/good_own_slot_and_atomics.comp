#version 450
// Each invocation reads and writes only its own slot, and shared counters are
// updated with atomics: neither needs a barrier.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint mine[64];
shared uint count;
shared uint bins[16];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid == 0) count = 0;
    if (tid < 16) bins[tid] = 0;
    barrier();
    mine[tid] = x[gl_GlobalInvocationID.x];
    for (uint i = 0; i < 4; ++i) mine[tid] = mine[tid] * 3u + i;
    atomicAdd(count, mine[tid] & 1u);
    atomicAdd(bins[mine[tid] % 16u], 1u);
    barrier();
    x[gl_GlobalInvocationID.x] = mine[tid] + count + bins[tid % 16u];
}
