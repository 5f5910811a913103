#version 450
// Ten invocations of the first subgroup sum among themselves; the rest of
// that subgroup skips the sum, and ten is no whole number of subgroups.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint v = x[gl_GlobalInvocationID.x];
    if (tid < 10) v = subgroupAdd(v);  // expect: subgroup-operation-in-divergent-control-flow "gl_LocalInvocationID" // expect-note: "never reach subgroupAdd; the condition depends on gl_LocalInvocationID" // expect-note: "invocation index 10 falls inside a subgroup on every target, so one subgroup has invocations on both sides of this comparison" // expect-note@-2: "gl_LocalInvocationID differs between the invocations of a subgroup"
    if (tid % 2 == 0) {
        uvec4 odd = subgroupBallot(v > 3);  // expect: subgroup-operation-in-divergent-control-flow "subgroupBallot" // expect-note@-1: "never reach subgroupBallot; the condition depends on gl_LocalInvocationID" // expect-note@-4: "gl_LocalInvocationID differs between the invocations of a subgroup"
        v += subgroupBallotBitCount(odd);   // a count of a ballot reads no other lane: not reported again
    }
    x[gl_GlobalInvocationID.x] = v;
}
