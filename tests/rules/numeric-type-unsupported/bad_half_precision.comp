#version 450
// 16-bit float arithmetic and 16-bit storage: optional features.
// fixture-options: --target=vulkan-1.3-minimum
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float16_t data[]; };
void main() {
    float16_t x = data[gl_GlobalInvocationID.x];  // expect: numeric-type-unsupported "16-bit types in storage buffers"
    data[gl_GlobalInvocationID.x] = x * float16_t(2.0);  // expect: numeric-type-unsupported "16-bit float arithmetic"
}
