#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// One float16_t partial sum per output row, chosen by the outer loop and
// summed over K by the inner one: each element takes K rounded additions.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) readonly buffer X { float16_t x[]; };
layout(binding = 2) writeonly buffer Y { float16_t y[]; };
layout(push_constant) uniform Params { uint K; };

void main() {
    uint col = gl_GlobalInvocationID.x;
    f16vec2 partial[4];  // expect: half-precision-accumulator confirmed "16-bit float 'partial'"
    for (uint row = 0; row < 4; ++row) {
        partial[row] = f16vec2(0.0);
        for (uint k = 0; k < K; k += 2) {
            partial[row] += f16vec2(a[(row * K + k) * 64 + col], a[(row * K + k + 1) * 64 + col]) * x[k];
        }
    }
    for (uint row = 0; row < 4; ++row) y[col * 4u + row] = partial[row].x + partial[row].y;
}
