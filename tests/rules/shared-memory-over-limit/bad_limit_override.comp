#version 450
// fixture-options: --max-shared-memory=16384 --target=lavapipe
// 20,000 bytes fit 32 KiB but not a 16 KiB device.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[5000];  // expect: shared-memory-over-limit inconclusive "over the limit of 16384 bytes"

void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[63 - gl_LocalInvocationID.x];
}
