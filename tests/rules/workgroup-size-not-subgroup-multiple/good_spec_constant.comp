#version 450
// Judged at its declared default: 256.
layout(local_size_x_id = 0) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(constant_id = 0) const uint BLOCK_SIZE = 256;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= float(BLOCK_SIZE); }
