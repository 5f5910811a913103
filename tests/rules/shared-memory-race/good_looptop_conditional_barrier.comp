#version 450
// A tiled loop that puts its second barrier at the top of the next iteration:
// `if (i > 0) barrier();` runs on every iteration but the first, and every
// invocation agrees on i, so it orders this iteration's reads of the tile
// before the next iteration's writes.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint tiles; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint i = 0u; i < tiles; ++i) {
        if (i > 0u) barrier();
        tile[l] = x[i * 64u + l];
        barrier();
        acc += tile[63u - l];
    }
    y[gl_GlobalInvocationID.x] = acc;
}
