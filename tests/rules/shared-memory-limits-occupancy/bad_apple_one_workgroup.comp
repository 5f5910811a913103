#version 450
// 20 KiB of threadgroup memory: one threadgroup per Apple GPU core.
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[5120];

void main() {  // expect: shared-memory-limits-occupancy "20480 bytes of workgroup memory let only 1 workgroup on apple-m1 stay resident"
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[255 - gl_LocalInvocationID.x];
}
