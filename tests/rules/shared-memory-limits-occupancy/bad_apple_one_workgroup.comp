#version 450
// 32 KiB of threadgroup memory: an Apple GPU core has about 60 KiB (measured),
// so only one such threadgroup stays resident on it.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
shared float tile[8192];  // expect: shared-memory-limits-occupancy inconclusive "32768 bytes of workgroup memory let only 1 workgroup on apple-m1 stay resident"  // expect: shared-memory-over-limit "swiftshader (16384 bytes)"

void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[255 - gl_LocalInvocationID.x];
}
