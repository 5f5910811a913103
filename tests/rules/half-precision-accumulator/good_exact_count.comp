#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// The count of a window's positive values kept in a uint and converted once.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t values[]; };
layout(binding = 1) writeonly buffer Out { float16_t positives[]; };
layout(push_constant) uniform Params { uint columns; };

void main() {
    uint column = gl_GlobalInvocationID.x;
    if (column >= columns) return;
    uint found = 0u;
    for (uint i = 0; i < 16; ++i) {
        if (values[i * columns + column] > float16_t(0.0)) found += 1u;
    }
    positives[column] = float16_t(found);
}
