#version 450
// The first invocation of a subgroup taken as gl_SubgroupID * 64: right on
// Adreno and AMD in wave64 only.
// fixture-options: --target=qualcomm-adreno-6xx,amd-rdna2-wave64,nvidia-ampere
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };

void main() {
    uint base = gl_WorkGroupID.x * 256 + gl_SubgroupID * 64;  // expect: subgroup-size-assumed confirmed "gl_SubgroupID * 64 (its first invocation) assumes 64-wide subgroups; nvidia-ampere (32 wide) runs other widths"
    float first = subgroupBroadcastFirst(data[base + gl_SubgroupInvocationID]);
    data[base + gl_SubgroupInvocationID] -= first;
}
