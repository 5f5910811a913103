#version 450
// A 16x16 workgroup over one-dimensional data, out of place: the 16
// invocations along y store the same value to an element none of them reads.
// The result is right, if wasteful; klint does not call it a race.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(std430, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float b[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = a[i] * 2.0;
}
