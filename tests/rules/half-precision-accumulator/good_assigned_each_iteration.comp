#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// 16-bit values carried around a loop without summing: the previous element
// (overwritten each iteration), a running maximum (exact in any precision),
// a 16-bit integer counter, and a 32-bit sum of 16-bit products.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float16_t src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Params { uint count; uint rows; };

void main() {
    float16_t previous = float16_t(0.0);
    float16_t largest = float16_t(-65504.0);
    int16_t steps = int16_t(0);
    float sum = 0.0;
    for (uint i = 0; i < count; ++i) {
        float16_t v = src[i * rows + gl_GlobalInvocationID.x];
        float16_t delta = v - previous;
        previous = v;
        largest = max(largest, v);
        steps += int16_t(1);
        sum += float(delta * delta);
    }
    dst[gl_GlobalInvocationID.x] = sum + float(largest) + float(steps);
}
