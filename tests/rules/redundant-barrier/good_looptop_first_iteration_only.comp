#version 450
// The barrier on the first iteration alone publishes the tile written before
// the loop; the later iterations only read it, so they need none.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint steps; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = x[gl_GlobalInvocationID.x];
    float acc = 0.0;
    for (uint i = 0u; i < steps; ++i) {
        if (i == 0u) barrier();
        acc += tile[(l + i) % 64u];
    }
    y[gl_GlobalInvocationID.x] = acc;
}
