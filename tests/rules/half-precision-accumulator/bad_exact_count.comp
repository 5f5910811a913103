#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// A float16_t that counts the positive values of a 16-wide window: exact up
// to 2048, and a window of 16 never gets there. The copy that counts in 32
// bits writes the same, so the finding is not reproduced; the loop is short
// and bounded, a case its documentation says to suppress.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t values[]; };
layout(binding = 1) writeonly buffer Out { float16_t positives[]; };
layout(push_constant) uniform Params { uint columns; };

void main() {
    uint column = gl_GlobalInvocationID.x;
    if (column >= columns) return;
    float16_t found = float16_t(0.0);  // expect: half-precision-accumulator not-reproduced "16-bit float 'found'"
    for (uint i = 0; i < 16; ++i) {
        if (values[i * columns + column] > float16_t(0.0)) found += float16_t(1.0);
    }
    positives[column] = found;
}
