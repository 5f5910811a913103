#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// A matmul whose inner loop keeps four output columns in one f16vec4, with
// fma and a nested loop over the K dimension in tiles.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) readonly buffer B { f16vec4 b[]; };
layout(binding = 2) writeonly buffer C { f16vec4 c[]; };
layout(push_constant) uniform Params { uint M, N, K; };

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col4 = gl_GlobalInvocationID.x;
    f16vec4 sum = f16vec4(0.0);  // expect: half-precision-accumulator confirmed "16-bit float 'sum'"
    for (uint k0 = 0; k0 < K; k0 += 4) {
        for (uint k = k0; k < k0 + 4; ++k) {
            sum = fma(f16vec4(a[row * K + k]), b[k * (N / 4) + col4], sum);
        }
    }
    c[row * (N / 4) + col4] = sum;
}
