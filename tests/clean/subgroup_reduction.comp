#version 450
// Sum of a row: subgroup sums, one slot per subgroup sized by gl_NumSubgroups,
// a barrier, the first subgroup combines, a barrier, everyone reads the total.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float partial[128];  // one per subgroup: enough for subgroups of 1 and up

void main() {
    // Rows over x and y: a dispatch reaches past 65,535 rows.
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    float sum = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x) sum += x[row * n + i];
    sum = subgroupAdd(sum);
    if (subgroupElect()) partial[gl_SubgroupID] = sum;
    barrier();
    if (gl_SubgroupID == 0) {
        float total = 0.0;
        for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) total += partial[s];
        total = subgroupAdd(total);
        if (subgroupElect()) partial[0] = total;
    }
    barrier();
    if (gl_LocalInvocationID.x == 0) sums[row] = partial[0];
}
