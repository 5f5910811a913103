#version 450
#extension GL_EXT_shared_memory_block : require
// Only the first 32 vec4 of Vectors are written, so the floats of Scalars
// past 127 are not, through either block.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared Scalars { float s[256]; };
shared Vectors { vec4 v[64]; };

void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 32u) v[l] = x[gl_GlobalInvocationID.x];
    barrier();
    float sum = s[l] + s[l + 192u];  // expect: uninitialized-shared-read not-runnable "reads s[192]"
    x[gl_GlobalInvocationID.x] = vec4(sum);
}
