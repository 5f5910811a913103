#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// A dot product summed in float16_t: every term rounds the sum to 11 bits.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer X { float16_t x[]; };
layout(binding = 1) readonly buffer W { float16_t w[]; };
layout(binding = 2) writeonly buffer Y { float16_t y[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint row = gl_GlobalInvocationID.x;
    float16_t acc = float16_t(0.0);  // expect: half-precision-accumulator confirmed "16-bit float 'acc' accumulates across loop iterations"
    for (uint i = 0; i < n; ++i) {
        acc += x[row * n + i] * w[i];  // expect: uncoalesced-global-access "read 'x' n elements"
    }
    y[row] = acc;
}
