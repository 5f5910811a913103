#version 450
// The workgroup size is a specialization constant: the tree spans the whole
// workgroup, whose size the pipeline sets (32 is only the default).
layout(constant_id = 0) const uint BLOCK_SIZE = 32;
layout(local_size_x_id = 0) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[1024];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) x[gl_WorkGroupID.x] = partial[0];
}
