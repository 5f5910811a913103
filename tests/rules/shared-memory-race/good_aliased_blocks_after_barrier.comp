#version 450
#extension GL_EXT_shared_memory_block : require
// The same accesses through two aliasing blocks, with the barrier between.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared Scalars { float s[256]; };
shared Vectors { vec4 v[64]; };

void main() {
    uint l = gl_LocalInvocationID.x;
    v[l] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = vec4(s[l + 4u]);
}
