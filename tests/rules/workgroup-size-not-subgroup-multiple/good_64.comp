#version 450
// 64 is a multiple of every default target's subgroup size.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
