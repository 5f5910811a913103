#version 450
layout(local_size_x = 8, local_size_y = 8, local_size_z = 4) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.z * 4096 + gl_GlobalInvocationID.y * 64 + gl_GlobalInvocationID.x] *= 2.0; }
