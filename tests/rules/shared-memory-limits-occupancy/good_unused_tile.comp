#version 450
// A 31 KiB tile left declared after the kernel stopped using it: compilers
// drop it (NVIDIA's reports 0 bytes of shared memory for such an array), so
// the 1 KiB the kernel uses keeps many workgroups resident.
// fixture-options: --target=apple-m1
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float old_tile[7936];
shared float partial[256];

void main() {
    partial[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = partial[255 - gl_LocalInvocationID.x];
}
