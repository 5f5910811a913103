#version 450
// 16-bit float arithmetic and 16-bit storage with no target declared: the
// module declares Float16 and StorageBuffer16BitAccess, and its host checks the
// device before it picks the shader, so nothing is reported.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float16_t data[]; };
void main() {
    float16_t x = data[gl_GlobalInvocationID.x];
    data[gl_GlobalInvocationID.x] = x * float16_t(2.0);
}
