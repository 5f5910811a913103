#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// A long dot product summed in half precision.
// pitfall: half-precision-accumulator
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint rows; uint k; } p;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };

void main() {
    uint row = gl_GlobalInvocationID.x;
    if (row >= p.rows) return;
    float16_t acc = float16_t(0.0);
    for (uint i = 0; i < p.k; ++i) acc += a[row * p.k + i] * b[i];
    c[row] = float(acc);
}
