#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// The seeds' fix: 16-bit loads (half the bandwidth) converted to float in
// registers, the sum kept in float, one conversion on the store.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer A { f16vec4 a[]; };
layout(binding = 1) readonly buffer B { f16vec4 b[]; };
layout(binding = 2) writeonly buffer C { float16_t c[]; };
layout(push_constant) uniform Params { uint N, K4; };

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    vec4 acc = vec4(0.0);
    for (uint k = 0; k < K4; ++k) {
        f16vec4 x = a[row * K4 + k];
        f16vec4 y = b[k * N + col];  // B stored k-major: neighbours read neighbours
        acc = fma(vec4(x), vec4(y), acc);
    }
    float total = 0.0;
    for (int i = 0; i < 4; ++i) total += acc[i];
    c[row * N + col] = float16_t(total);
}
