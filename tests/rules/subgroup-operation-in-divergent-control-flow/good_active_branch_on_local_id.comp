#version 450
// Reductions and ballots under a branch that splits subgroups: each combines
// the lanes that took the branch, which is what the code asks for. The sum of
// the first ten invocations' values, and a ballot among the even ones, are
// defined on the active lanes; nothing reads a lane that is not there.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint v = x[gl_GlobalInvocationID.x];
    if (tid < 10) v = subgroupAdd(v);
    if (tid % 2 == 0) {
        uvec4 big = subgroupBallot(v > 3);
        v += subgroupBallotBitCount(big);
        v += subgroupExclusiveAdd(v) + uint(subgroupAny(v > 7)) + uint(subgroupAll(v > 1));
    }
    x[gl_GlobalInvocationID.x] = v;
}
