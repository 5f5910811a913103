#version 450
// The first subgroup reads one partial per lane below gl_NumSubgroups, and
// loops while more subgroups than lanes remain.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float res[]; };
shared float data[gl_WorkGroupSize.x / 4];

void main() {
    float sum = subgroupAdd(res[gl_GlobalInvocationID.x]);
    if (subgroupElect()) data[gl_SubgroupID] = sum;
    barrier();
    if (gl_SubgroupID == 0) {
        float t = gl_SubgroupInvocationID < gl_NumSubgroups ? data[gl_SubgroupInvocationID] : 0.0;
        for (uint i = gl_SubgroupInvocationID + gl_SubgroupSize; i < gl_NumSubgroups; i += gl_SubgroupSize) t += data[i];
        sum = subgroupAdd(t);
    }
    if (gl_LocalInvocationID.x == 0) res[gl_WorkGroupID.x] = sum;
}
