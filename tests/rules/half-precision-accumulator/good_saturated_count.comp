#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// The row's total summed in float and stored as float16_t once.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t weights[]; };
layout(binding = 1) writeonly buffer Out { float16_t totals[]; };
layout(push_constant) uniform Params { uint length; uint columns; };

void main() {
    uint column = gl_GlobalInvocationID.x;
    if (column >= columns) return;
    float total = 0.0;
    for (uint i = 0; i < length; ++i) {
        total += abs(float(weights[i * columns + column])) + 1.0;
    }
    totals[column] = float16_t(total);
}
