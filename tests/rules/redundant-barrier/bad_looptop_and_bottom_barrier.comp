#version 450
// A barrier at the bottom of the loop body and another at the top of every
// iteration but the first: the top one only ever runs right after the bottom
// one. (The first iteration skips it, so the tile written before the loop
// never meets it.)
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint tiles; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    tile[l] = 1.0;
    for (uint i = 0u; i < tiles; ++i) {
        if (i > 0u) barrier();  // expect: redundant-barrier "since the previous barrier" // expect-note@+4: "the previous barrier"
        tile[l] = x[i * 64u + l];
        barrier();
        acc += tile[63u - l];
        barrier();
    }
    y[gl_GlobalInvocationID.x] = acc;
}
