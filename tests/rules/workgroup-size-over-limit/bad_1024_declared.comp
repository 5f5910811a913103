#version 450
// 32x32 = 1024 invocations: fine on desktop GPUs, over the Vulkan minimum's 128.
// fixture-options: --target=vulkan-1.3-minimum,nvidia-ampere
layout(local_size_x = 32, local_size_y = 32) in;  // expect: workgroup-size-over-limit inconclusive "1024 invocations (32x32x1) exceeds the limit of vulkan-1.3-minimum (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationIndex] = 0.0; }
