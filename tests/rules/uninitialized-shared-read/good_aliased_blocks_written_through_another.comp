#version 450
#extension GL_EXT_shared_memory_block : require
// Explicit-layout shared blocks alias: each invocation fills one vec4 of
// Vectors, and so the four floats of Scalars under it; every float read has
// been written, through the other block.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared Scalars { float s[256]; };
shared Vectors { vec4 v[64]; };

void main() {
    uint l = gl_LocalInvocationID.x;
    v[l] = x[gl_GlobalInvocationID.x];
    barrier();
    float sum = s[l] + s[l + 64u] + s[l + 128u] + s[l + 192u];
    x[gl_GlobalInvocationID.x] = vec4(sum);
}
