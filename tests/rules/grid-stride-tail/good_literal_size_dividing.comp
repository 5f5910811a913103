#version 450
// 64 invocations copy a 256-entry table in four whole steps; a second copy
// with an odd size checks its index.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
layout(binding = 1) readonly buffer Weights { float weights[256]; };
shared float w[256];
shared float bias[100];

void main() {
    for (uint i = 0; i < 256u; i += 64u) {
        w[i + gl_LocalInvocationID.x] = weights[i + gl_LocalInvocationID.x];
    }
    for (uint i = 0; i < 100u; i += 64u) {
        if (i + gl_LocalInvocationID.x >= 100u) break;
        bias[i + gl_LocalInvocationID.x] = weights[i + gl_LocalInvocationID.x];
    }
    barrier();
    data[gl_GlobalInvocationID.x] *= w[gl_LocalInvocationID.x] + bias[gl_LocalInvocationID.x];
}
