#version 450
// The same 32x4 row sums, written for any width: each subgroup adds its part
// of every row and elects one lane to add it to the row's total.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 32, local_size_y = 4) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { float row_sum[]; };

void main() {
    uint row = gl_WorkGroupID.x * 4u + gl_LocalInvocationID.y;
    float v = x[row * 32u + gl_LocalInvocationID.x];
    // Each row in its own subgroup or subgroups: one atomic per subgroup and row.
    for (uint r = 0u; r < 4u; ++r) {
        float part = subgroupAdd(gl_LocalInvocationID.y == r ? v : 0.0);
        if (subgroupElect() && part != 0.0) atomicAdd(row_sum[gl_WorkGroupID.x * 4u + r], part);
    }
}
