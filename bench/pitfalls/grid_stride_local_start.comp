#version 450
// A grid-stride loop that starts at the local id: every workgroup redoes the
// first workgroup's elements.
// pitfall: grid-stride-mismatch
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; float scale; } p;
layout(std430, binding = 0) buffer Data { float data[]; };

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_LocalInvocationID.x; i < p.n; i += stride) {
        data[i] = data[i] * p.scale + 1.0;
    }
}
