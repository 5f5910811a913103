#version 450
// fixture-options: --target=nvidia-ampere,apple-m1
// A grid-stride reduction in a while loop, the partial sum a float16_t. The
// runs stride over at most 1025 elements with 768 invocations: two or three
// terms each, too few to lose more than one rounding, so --confirm does not
// reproduce it.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float16_t data[]; };
layout(binding = 1) writeonly buffer Out { float partial[]; };
layout(push_constant) uniform Params { uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t total = float16_t(0.0);  // expect: half-precision-accumulator not-reproduced "'total'"
    while (i < count) {
        float16_t v = data[i];
        total = total + v * v;
        i += gl_NumWorkGroups.x * 256;
    }
    partial[gl_GlobalInvocationID.x] = float(total);
}
