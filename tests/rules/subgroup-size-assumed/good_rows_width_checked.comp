#version 450
// Rows as subgroups, but only where the subgroup is the row's width: the
// code checks gl_SubgroupSize, and falls back to shared memory otherwise.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32, local_size_y = 4) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float row_sum[]; };
shared float tile[4][32];

void main() {
    uint row = gl_WorkGroupID.x * 4u + gl_LocalInvocationID.y;
    float v = x[row * 32u + gl_LocalInvocationID.x];
    if (gl_SubgroupSize == 32u) {
        float s = subgroupAdd(v);
        if (gl_LocalInvocationID.x == 0u) row_sum[row] = s;
    } else {
        tile[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = v;
        barrier();
        if (gl_LocalInvocationID.x == 0u) {
            float s = 0.0;
            for (uint i = 0u; i < 32u; ++i) s += tile[gl_LocalInvocationID.y][i];
            row_sum[row] = s;
        }
    }
}
