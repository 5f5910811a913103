#version 450
// The second stage of a reduction run by "the first warp", taken as the
// first 32 invocations: on narrower subgroups subgroupAdd sums only part of
// them. Wider subgroups are fine: the operation runs on their active lanes.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float res[]; };
shared float partial[gl_WorkGroupSize.x / 4];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float s = subgroupAdd(res[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (tid < 32) {  // expect: subgroup-size-assumed confirmed "'< 32' on gl_LocalInvocationID.x, taking the first 32 invocations for one subgroup, assumes 32-wide subgroups; swiftshader (4 wide); lavapipe (8 wide); intel-xe (8 to 32 wide, chosen per shader) and arm-mali-valhall (16 wide) run narrower ones"
        float v = tid < gl_NumSubgroups ? partial[tid] : 0.0;
        v = subgroupAdd(v);
        if (tid == 0) res[gl_WorkGroupID.x] = v;
    }
}
