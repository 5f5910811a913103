#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// A 16-bit copy and scale kernel: loads, stores and conversions in a loop,
// nothing carried from one iteration to the next.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t src[]; };
layout(binding = 1) writeonly buffer Out { float16_t dst[]; };
layout(push_constant) uniform Params { uint count; float scale; };

void main() {
    for (uint i = gl_GlobalInvocationID.x; i < count; i += gl_NumWorkGroups.x * 64) {
        dst[i] = float16_t(float(src[i]) * scale);
    }
}
