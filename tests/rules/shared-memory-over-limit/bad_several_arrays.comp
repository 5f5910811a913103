#version 450
// No single array is over the limit; together they are.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 data[]; };
shared vec4 a_tile[1024];   // 16 KiB  // expect: shared-memory-over-limit confirmed "33024 bytes"
shared vec4 b_tile[1024];   // 16 KiB
shared float scale[64];     // 256 bytes

void main() {
// expect-note@-5: "'a_tile' takes 16384 bytes"
// expect-note@-5: "'b_tile' takes 16384 bytes"
// expect-note@-5: "'scale' takes 256 bytes"
// expect-note@-8: "Vulkan guarantees 16384 bytes"
    uint tid = gl_LocalInvocationID.x;
    a_tile[tid] = data[tid];
    b_tile[tid] = data[tid + 64];
    scale[tid] = 1.0;
    barrier();
    data[tid] = a_tile[63 - tid] * b_tile[tid] * scale[tid];
}
