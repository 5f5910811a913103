#version 450
// 128 invocations, 128x1x1: the Vulkan minimum, which every device offers.
// fixture-options: --target=vulkan-1.3-minimum
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] = 0.0; }
