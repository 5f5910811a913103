#version 450
// The global index spelled out, then a workgroup-sized step.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint first = gl_WorkGroupID.x * 128 + gl_LocalInvocationID.x;
    // expect@+1: grid-stride-mismatch confirmed "workgroup size (128)"
    for (uint i = first; i < n; i += gl_WorkGroupSize.x) {
        data[i] += 1;
    }
    // The same with gl_LocalInvocationIndex, which is the local id along x in a one-dimensional workgroup.
    // expect@+1: grid-stride-mismatch confirmed "workgroup size (128)"
    for (uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * gl_WorkGroupSize.x; i < n; i += 128) {
        data[i] *= 2;
    }
}
