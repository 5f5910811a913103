#version 450
// 128 invocations fit everywhere, but a z dimension of 128 is over the 64
// that NVIDIA allows.
// fixture-options: --target=nvidia-ampere,amd-rdna2-wave32
layout(local_size_x = 1, local_size_y = 1, local_size_z = 128) in;  // expect: workgroup-size-over-limit inconclusive "1x1x128 exceeds the largest dimensions of nvidia-ampere (at most 1024x1024x64)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationID.z] = 0.0; }
