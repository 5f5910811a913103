#version 450
// barrier() waits for the workgroup and makes its shared writes visible.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float values[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = values[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 64; stride > 0; stride >>= 1) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
