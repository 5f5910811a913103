#version 450
// 32 leaves half of an Adreno wave idle, but it is the size portable kernels
// pick for 32-wide GPUs: powers of two from 32 up are not reported.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
