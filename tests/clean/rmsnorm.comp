#version 450
// RMSNorm, one workgroup per row, as the seeds fix it: every invocation
// contributes (zero when idle), subgroup sums meet in shared memory sized for
// the largest workgroup, two barriers around the combine.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) readonly buffer W { float w[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; float eps; };
shared float partial[128];

void main() {
    // Rows over x and y: a dispatch reaches past 65,535 rows.
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    float sum_sq = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < D; i += gl_WorkGroupSize.x) {
        float v = x[row * D + i];
        sum_sq += v * v;
    }
    sum_sq = subgroupAdd(sum_sq);
    if (subgroupElect()) partial[gl_SubgroupID] = sum_sq;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) total += partial[s];
        partial[0] = total;
    }
    barrier();
    float scale = inversesqrt(partial[0] / float(D) + eps);
    for (uint i = gl_LocalInvocationID.x; i < D; i += gl_WorkGroupSize.x) y[row * D + i] = x[row * D + i] * scale * w[i];
}
