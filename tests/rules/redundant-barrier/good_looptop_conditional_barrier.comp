#version 450
// Both barriers of a tiled loop that puts its second barrier at the top of the
// next iteration are needed: the top one (every iteration but the first)
// keeps the next tile's writes from overtaking this tile's reads, the middle
// one publishes the tile.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint tiles; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    tile[l] = 0.0;
    for (uint i = 0u; i < tiles; ++i) {
        if (i != 0u) barrier();
        tile[l] += x[i * 64u + l];
        barrier();
        acc += tile[(l + 1u) % 64u];
    }
    y[gl_GlobalInvocationID.x] = acc;
}
