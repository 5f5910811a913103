#version 450
// 128 elements per workgroup along x: the kernel reaches 8.4 million
// elements, and the per-workgroup partial it writes does not change that.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Partials { float partials[]; };
layout(push_constant) uniform P { uint n; } p;
shared float sums[128];

void main() {
    uint i = gl_GlobalInvocationID.x;
    sums[gl_LocalInvocationID.x] = i < p.n ? x[i] : 0.0;
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (gl_LocalInvocationID.x < s) sums[gl_LocalInvocationID.x] += sums[gl_LocalInvocationID.x + s];
        barrier();
    }
    if (gl_LocalInvocationID.x == 0) partials[gl_WorkGroupID.x] = sums[0];
}
