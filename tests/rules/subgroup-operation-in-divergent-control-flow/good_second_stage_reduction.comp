#version 450
// The first subgroup combines the per-subgroup partial sums: gl_SubgroupID is
// the same for every lane of a subgroup, so that subgroup runs whole.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float partial[256];

void main() {
    float sum = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x) sum += x[gl_WorkGroupID.x * n + i];  // expect: workgroup-count-over-limit
    sum = subgroupAdd(sum);  // after the loop every lane is back, whatever its trip count
    if (subgroupElect()) partial[gl_SubgroupID] = sum;
    barrier();
    if (gl_SubgroupID == 0) {
        float v = gl_SubgroupInvocationID < gl_NumSubgroups ? partial[gl_SubgroupInvocationID] : 0.0;
        v = subgroupAdd(v);
        if (subgroupElect()) sums[gl_WorkGroupID.x] = v;
    }
    // Conditions on subgroup-wide results keep the subgroup whole too.
    float top = subgroupMax(sum);
    if (top > 1.0 && subgroupAny(sum < 0.0)) {
        float first = subgroupBroadcast(sum, 0u);
        if (subgroupBallotBitCount(subgroupBallot(sum > first)) > 3u) sum = subgroupMin(sum);
    }
    if (gl_WorkGroupID.x == 0 && gl_LocalInvocationID.x == 0) sums[0] += sum;
}
