#version 450
// Branches that split the groups of lanes a shuffle reads within: the first
// ten invocations leave lanes 8 and 9 without their partners 12 and 13, and
// the even lanes read odd ones, which skipped the branch.
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint v = x[gl_GlobalInvocationID.x];
    if (tid < 10) v += subgroupShuffleXor(v, 4u);  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupShuffleXor in control flow that depends on gl_LocalInvocationID, so it may read a lane of its group of 8 lanes that is not active" // expect-note: "never reach subgroupShuffleXor; the condition depends on gl_LocalInvocationID" // expect-note: "invocation index 10 is not a multiple of 8, so one group of 8 lanes has invocations on both sides of this comparison" // expect-note@-2: "gl_LocalInvocationID differs between the invocations of a subgroup"
    if (tid % 2 == 0) {
        v += subgroupShuffleDown(v, 1u);  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupShuffleDown"
    }
    x[gl_GlobalInvocationID.x] = v;
}
