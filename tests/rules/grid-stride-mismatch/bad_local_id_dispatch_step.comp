#version 450
// Starts at the index within the workgroup but steps by the whole dispatch:
// every workgroup scales the same elements, and those from 64 up to the
// dispatch size are never touched.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint n; float scale; };

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    // expect@+1: grid-stride-mismatch confirmed "starts at the local invocation id but steps by the whole dispatch (gl_NumWorkGroups.x * 64)"
    for (uint i = gl_LocalInvocationID.x; i < n; i += stride) {
        data[i] *= scale;
    }
}
