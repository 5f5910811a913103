#version 450
#extension GL_EXT_shared_memory_block : require
// Aliasing blocks take the largest of them: 40 KiB, over the default devices' 32 KiB.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared Scalars { float s[10240]; };  // expect: shared-memory-over-limit confirmed "uses 40960 bytes (40.0 KiB)"
shared Vectors { vec4 v[64]; };

void main() {
// expect-note@-4: "'Scalars' takes 40960 bytes (40.0 KiB), in the memory the explicit-layout blocks share"
// expect-note@-4: "'Vectors' takes 1024 bytes (1.0 KiB), in the memory the explicit-layout blocks share"
// expect-note@-6: "Vulkan guarantees 16384 bytes"
    uint l = gl_LocalInvocationID.x;
    v[l] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = vec4(s[l]);
}
