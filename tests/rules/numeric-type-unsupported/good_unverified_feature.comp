#version 450
// 8-bit storage and arithmetic on a target where no report verified them
// (null in the target file): not reported, since nothing says they are missing.
// fixture-options: --target=qualcomm-adreno-7xx
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint8_t data[]; };
void main() { data[gl_GlobalInvocationID.x] = data[gl_GlobalInvocationID.x] + uint8_t(1); }
