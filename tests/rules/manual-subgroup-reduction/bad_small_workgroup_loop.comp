#version 450
// A workgroup of one subgroup sums its values through shared memory: five
// steps, five barriers, for what one subgroupAdd() does in registers.
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    // expect@+1: manual-subgroup-reduction "tree reduction over 'partial' runs within 16 invocations: subgroupAdd() does it"
    for (uint s = 16; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
