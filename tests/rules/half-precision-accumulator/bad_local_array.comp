#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// Per-row partial sums kept in a local float16_t array that the outer loop
// over K revisits: each element accumulates K / 4 products.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) writeonly buffer C { float16_t c[]; };
layout(push_constant) uniform Params { uint K; };

void main() {
    float16_t sums[4];  // expect: half-precision-accumulator confirmed "16-bit float 'sums' accumulates"
    for (int r = 0; r < 4; ++r) sums[r] = float16_t(0.0);
    uint base = gl_GlobalInvocationID.x * K;
    for (uint k = 0; k < K; k += 4) {
        for (int r = 0; r < 4; ++r) {
            sums[r] += a[base + k + uint(r)];  // expect: uncoalesced-global-access "read 'a' K elements"
        }
    }
    for (int r = 0; r < 4; ++r) c[gl_GlobalInvocationID.x * 4 + uint(r)] = sums[r];
}
