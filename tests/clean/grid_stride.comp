#version 450
// Element-wise SiLU over any length: a grid-stride loop that starts at the
// global id and steps by the whole grid.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
        float v = x[i];
        y[i] = v / (1.0 + exp(-v));
    }
}
