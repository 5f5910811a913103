#version 450
// The first subgroup reads one partial per lane with no guard: right only
// where the workgroup has as many subgroups as a subgroup has lanes (1024
// invocations in 32-wide subgroups). Here the other lanes add slots that no
// subgroup wrote, or, on lavapipe, 24 of the 32 sums are never read.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float res[]; };
shared float data[32];

void main() {
    float sum = subgroupAdd(res[gl_GlobalInvocationID.x]);
    if (gl_SubgroupInvocationID == 0) data[gl_SubgroupID] = sum;
    barrier();
    if (gl_SubgroupID == 0) {
        // expect@+1: uninitialized-shared-read "invocation 8 reads data[8], which no invocation writes before it"
        sum = data[gl_SubgroupInvocationID];  // expect: subgroup-count-assumed confirmed "each lane reads one element of 'data', as if there were as many subgroups as lanes, which does not hold on qualcomm-adreno-6xx (4 subgroups of 64); amd-rdna2-wave32, apple-m1, nvidia-ampere (8 subgroups of 32) and lavapipe (32 subgroups of 8)"
        sum = subgroupAdd(sum);
    }
    if (gl_LocalInvocationID.x == 0) res[gl_WorkGroupID.x] = sum;
}
