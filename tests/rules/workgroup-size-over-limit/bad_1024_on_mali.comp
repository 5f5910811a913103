#version 450
// 32x32 = 1024 invocations: fine on desktop GPUs, over Mali's 256.
// fixture-options: --target=arm-mali-valhall,nvidia-ampere
layout(local_size_x = 32, local_size_y = 32) in;  // expect: workgroup-size-over-limit "1024 invocations (32x32x1) exceeds the limit of arm-mali-valhall (256 invocations)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationIndex] = 0.0; }
