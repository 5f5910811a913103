#version 450
// 256 invocations, 16x16: within every default target.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit inconclusive "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_LocalInvocationIndex] = 0.0; }
