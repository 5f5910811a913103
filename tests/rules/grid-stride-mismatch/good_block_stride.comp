#version 450
// One row per workgroup: the invocations of a workgroup share its row,
// starting at the local index and stepping by the workgroup size, whether
// spelled gl_WorkGroupSize.x, the literal, or gl_LocalInvocationIndex.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer X { float x[]; };
layout(push_constant) uniform P { uint D; uint K; };

void main() {
    uint row = gl_WorkGroupID.x;  // expect: workgroup-count-over-limit
    uint tid = gl_LocalInvocationID.x;
    for (uint i = tid; i < D; i += gl_WorkGroupSize.x) x[row * D + i] *= 0.5;
    for (uint i = tid; i < K; i += 256) x[row * D + i] += 1.0;
    for (uint i = gl_LocalInvocationIndex; i < D; i += 256) x[row * D + i] -= 1.0;
}
