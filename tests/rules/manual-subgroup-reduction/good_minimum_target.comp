#version 450
// For a device with only basic subgroup operations, the shared-memory tree is
// the way to reduce.
// fixture-options: --target=vulkan-1.3-minimum
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 16; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) x[gl_WorkGroupID.x] = partial[0];
}
