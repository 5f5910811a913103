#version 450
// The seeds' "manual reduction": a butterfly over shared memory that leaves
// the sum in every element, here with the barriers the Vulkan memory model
// needs. subgroupAdd() gives every invocation the sum in one instruction.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float values[]; };
shared float shared_mem[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    shared_mem[tid] = values[gl_GlobalInvocationID.x];
    barrier();
    // expect@+1: manual-subgroup-reduction "tree reduction over 'shared_mem' runs within 32 invocations: subgroupAdd()"
    for (uint s = 1; s < 32; s *= 2) {
        float other = shared_mem[tid ^ s];
        barrier();
        shared_mem[tid] += other;
        barrier();
    }
    values[gl_GlobalInvocationID.x] = shared_mem[tid];
}
