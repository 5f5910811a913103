#version 450
// Each invocation reads or writes a small block of its own whole: the scalar
// form of a vector load, and structs read member by member.
layout(local_size_x = 64) in;
struct Pair { vec4 position; vec4 velocity; };
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
layout(binding = 2) buffer Vectors { vec4 vectors[]; };
layout(binding = 3) buffer Pairs { Pair pairs[]; };
layout(binding = 4) buffer Triples { float triples[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // Four consecutive floats, unrolled by hand and in a loop.
    float a = src[i * 4 + 0], b = src[i * 4 + 1], c = src[i * 4 + 2], d = src[i * 4 + 3];
    for (uint k = 0; k < 4; ++k) dst[i * 4 + k] = a + b + c + d;
    // One vec4 per invocation.
    vectors[i] = vectors[i] * 2.0;
    // A 32-byte struct, both members.
    pairs[i].position += pairs[i].velocity;
    // xyz triples read whole.
    float x = triples[3 * i], y = triples[3 * i + 1], z = triples[3 * i + 2];
    triples[3 * i] = x / (x + y + z);
    triples[3 * i + 1] = y / (x + y + z);
    triples[3 * i + 2] = z / (x + y + z);
}
