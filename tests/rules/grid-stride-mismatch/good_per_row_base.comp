#version 450
// Loops over one workgroup's own row, with the row's base folded into the
// index: the base is `row * D + tid`, and where D is the workgroup size the
// bound ends the row, so the workgroups do not meet.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer X { float x[]; };
layout(push_constant) uniform P { uint n; };
const uint D = 256;

void main() {
    uint row = gl_WorkGroupID.x;
    uint tid = gl_LocalInvocationID.x;
    for (uint i = row * n + tid; i < (row + 1) * n; i += 256) x[i] *= 2.0;
    for (uint i = row * D + tid; i < row * D + D; i += gl_WorkGroupSize.x) x[i] += 1.0;
}
