#version 450
// 16x16 = 256 invocations, a multiple of every default target's subgroup size.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.y * 1024 + gl_GlobalInvocationID.x] *= 2.0; }
