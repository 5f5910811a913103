#version 450
// The row width is a specialization constant the host sets to the device's
// subgroup size, and each row is taken for one subgroup, its lane the x id.
// That holds where the pipeline runs at the width the device reports; a
// compiler that picks the width per shader may pick another.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y = 4) in;
layout(constant_id = 0) const uint WIDTH = 32u;
layout(std430, binding = 0) readonly buffer Data { float x[]; };
layout(std430, binding = 1) writeonly buffer Sums { float row_sum[]; };

void main() {
    uint row = gl_WorkGroupID.x * 4u + gl_LocalInvocationID.y;
    uint lane = gl_LocalInvocationID.x;  // expect: subgroup-size-assumed confirmed "gl_LocalInvocationID.x as the subgroup lane of a 32x4x1 workgroup assumes 32-wide subgroups; intel-xe (8 to 32 wide, chosen per shader) runs other widths" // expect-note@-2: "comes from specialization constant 0 (default 32)" // expect-note@+2: "decides which invocations run this branch" // expect-note@+2: "which stores a subgroup result"
    float s = subgroupAdd(x[row * WIDTH + lane]);
    if (lane == 0u) row_sum[row] = s;
}
