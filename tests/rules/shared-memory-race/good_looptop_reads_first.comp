#version 450
// Reads first, writes last: the tile written at the end of one iteration is
// read at the start of the next, after the barrier at its top. The first
// iteration reads the tile the code before the loop published.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint steps; };
shared float tile[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = x[gl_GlobalInvocationID.x];
    barrier();
    float v = 0.0;
    for (uint s = 0u; s < steps; ++s) {
        if (s >= 1u) barrier();
        v = 0.5 * (tile[l] + tile[l ^ 1u]);
        barrier();
        tile[l] = v;
    }
    x[gl_GlobalInvocationID.x] = v;
}
