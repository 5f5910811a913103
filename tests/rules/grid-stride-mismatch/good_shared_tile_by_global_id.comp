#version 450
// Partial sums go to tile[gl_GlobalInvocationID.x], a tile as wide as the
// workgroup: past the first workgroup along x every invocation would index
// past the tile, so the kernel is written for one workgroup along x, where
// the global id is the local one and the loop covers the array.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float v[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float tile[128];

void main() {
    uint i0 = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint i = i0; i < n; i += gl_WorkGroupSize.x) acc += v[i];
    tile[i0] = acc;
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (i0 < s) tile[i0] += tile[i0 + s];
        barrier();
    }
    if (i0 == 0u) sums[0] = tile[0];
}
