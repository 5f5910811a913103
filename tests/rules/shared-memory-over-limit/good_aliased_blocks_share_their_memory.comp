#version 450
#extension GL_EXT_shared_memory_block : require
// Two 24 KiB views of one memory take 24 KiB, not 48.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared Scalars { float s[6144]; };
shared Vectors { vec4 v[1536]; };  // expect: shared-memory-over-limit inconclusive "swiftshader (16384 bytes)"

void main() {
    uint l = gl_LocalInvocationID.x;
    v[l] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = vec4(s[l]);
}
