#version 450
// A 32x4 workgroup sums four rows with subgroupAdd and lets x == 0 store each
// row's sum: that takes every row of 32 invocations for one subgroup. Where
// subgroups are 16 wide, half of each row's sum is lost; where they are 64
// wide, two rows are added together.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32, local_size_y = 4) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float row_sum[]; };

void main() {
    uint row = gl_WorkGroupID.x * 4u + gl_LocalInvocationID.y;
    float s = subgroupAdd(x[row * 32u + gl_LocalInvocationID.x]);
    if (gl_LocalInvocationID.x == 0u) row_sum[row] = s;  // expect: subgroup-size-assumed confirmed "gl_LocalInvocationID.x as the subgroup lane of a 32x4x1 workgroup assumes 32-wide subgroups; swiftshader (4 wide); lavapipe (8 wide)" // expect-note: "decides which invocations run this branch" // expect-note: "which stores a subgroup result"
}
