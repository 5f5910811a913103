#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// A float16_t total of a row's weights plus one each: past 256 every term
// loses bits to rounding, and past 2048 a term below 1 adds nothing, where
// the copy that sums in 32 bits keeps them.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t weights[]; };
layout(binding = 1) writeonly buffer Out { float16_t totals[]; };
layout(push_constant) uniform Params { uint length; uint columns; };

void main() {
    uint column = gl_GlobalInvocationID.x;
    if (column >= columns) return;
    float16_t total = float16_t(0.0);  // expect: half-precision-accumulator confirmed "16-bit float 'total'"
    for (uint i = 0; i < length; ++i) {
        total += abs(weights[i * columns + column]) + float16_t(1.0);
    }
    totals[column] = total;
}
