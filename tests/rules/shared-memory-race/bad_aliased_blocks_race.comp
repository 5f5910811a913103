#version 450
#extension GL_EXT_shared_memory_block : require
// Explicit-layout shared blocks are one memory: invocation 1 writes v[1],
// the bytes of s[4] to s[7], while invocation 0 reads s[4], with no barrier.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared Scalars { float s[256]; };
shared Vectors { vec4 v[64]; };

void main() {
    uint l = gl_LocalInvocationID.x;
    v[l] = x[gl_GlobalInvocationID.x];
    x[gl_GlobalInvocationID.x] = vec4(s[l + 4u]);  // expect: shared-memory-race not-runnable "invocation 0 reads s[4] while invocation 1 writes it" // expect-note@-1: "invocation 1 writes v[1] here"
}
