#version 450
// No target declared: a z dimension of 128 is over what Vulkan guarantees
// (64) and over what NVIDIA's desktop GPUs allow, so klint warns and names
// them, and says that it judged its default devices.
layout(local_size_x = 1, local_size_y = 1, local_size_z = 128) in;  // expect: workgroup-size-over-limit inconclusive "1x1x128 exceeds the largest dimensions of"
// expect-note@-1: "Vulkan guarantees 128 invocations, and 128x128x64; klint checked its default devices"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationIndex] = 0.0; }
