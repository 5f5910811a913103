#version 450
// 250 invocations idle 6 of 256 lanes: under an eighth, not reported.
layout(local_size_x = 10, local_size_y = 25) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.y * 10 + gl_GlobalInvocationID.x] *= 2.0; }
