#version 450
// 64-bit integer arithmetic against the Vulkan minimum, which does not
// guarantee shaderInt64.
// fixture-options: --target=vulkan-1.3-minimum
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint data[]; };
void main() {
    uint64_t wide = uint64_t(data[gl_GlobalInvocationID.x]) * 3000000000ul;  // expect: numeric-type-unsupported "64-bit integer arithmetic (shaderInt64)"
    data[gl_GlobalInvocationID.x] = uint(wide >> 32);
}
