#version 450
// A minimum with the CUDA-style warp-synchronous tail: the first 32
// invocations finish without barriers, trusting lockstep. It races
// (shared-memory-race), and it is a subgroup reduction written by hand.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { int x[]; };
shared int lowest[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    lowest[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    if (tid < 64) lowest[tid] = min(lowest[tid], lowest[tid + 64]);
    barrier();
    if (tid < 32) {
        // expect@+1: manual-subgroup-reduction "over 'lowest' runs within 32 invocations: subgroupMin()"
        lowest[tid] = min(lowest[tid], lowest[tid + 32]);
        // expect@+1: shared-memory-race "invocation 16 writes lowest[16] while invocation 0 reads it"
        lowest[tid] = min(lowest[tid], lowest[tid + 16]);
        lowest[tid] = min(lowest[tid], lowest[tid + 8]);  // expect: shared-memory-race "while invocation 0 reads it"
        lowest[tid] = min(lowest[tid], lowest[tid + 4]);  // expect: shared-memory-race "while invocation 0 reads it"
        lowest[tid] = min(lowest[tid], lowest[tid + 2]);  // expect: shared-memory-race "while invocation 0 reads it"
        lowest[tid] = min(lowest[tid], lowest[tid + 1]);  // expect: shared-memory-race "while invocation 0 reads it"
    }
    if (tid == 0) x[gl_WorkGroupID.x] = lowest[0];
}
