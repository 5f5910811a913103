#version 450
// Each invocation reads back only the element it wrote itself, at an address
// built from gl_LocalInvocationID alone: no other invocation is involved.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float scratch[64];

void main() {
    uint gid = gl_GlobalInvocationID.x;
    scratch[gl_LocalInvocationID.x] = x[gid];
    memoryBarrierShared();
    x[gid] = scratch[gl_LocalInvocationID.x] * 2.0;
}
