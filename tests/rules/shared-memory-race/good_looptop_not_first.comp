#version 450
// The same idiom, spelled `i != first` from a start that is not 0, with a
// constant trip count and the reads in an inner loop: the barrier at the top
// of every iteration but the first keeps the next tile from overwriting the
// one still being read.
layout(local_size_x = 32, local_size_y = 4) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint first; };
shared float tile[4][32];

void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    float acc = 0.0;
    for (uint i = first; i < first + 8u; i++) {
        if (i != first) {
            barrier();
        }
        tile[l.y][l.x] = x[i * 128u + l.y * 32u + l.x];
        barrier();
        for (uint k = 0u; k < 4u; ++k) acc += tile[k][31u - l.x];
    }
    y[gl_GlobalInvocationID.y * 32u + gl_GlobalInvocationID.x] = acc;
}
