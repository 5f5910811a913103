#version 450
// The raw ballot joins the published fold along an edge that does not say
// one subgroup is the workgroup (`gl_SubgroupSize > 8`): on a 16-wide device
// the 32 invocations hold two different ballots, and the loop's barriers
// run a different number of times in each subgroup.
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
shared uint slots[32];
shared uint tile[32];

uint workgroup_ballot(bool p) {
    uint mask = subgroupBallot(p).x;
    if (gl_SubgroupSize <= 8u) {
        mask <<= gl_SubgroupSize * gl_SubgroupID;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "depends on a value that differs between invocations" // expect-note@+19: "this loop condition depends on a value that differs between invocations" // expect-note@-3: "the result of a subgroup operation differs between subgroups"
        if (subgroupElect()) slots[gl_SubgroupID] = mask;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "depends on a value that differs between invocations" // expect-note@+17: "this loop condition depends on a value that differs between invocations" // expect-note@-5: "the result of a subgroup operation differs between subgroups"
        for (uint i = 1u; i < gl_NumSubgroups; ++i) mask |= slots[i ^ gl_SubgroupID];
    }
    return mask;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint value = values[gl_GlobalInvocationID.x] & 3u;
    uint pending = ~0u;
    do {
        uint same = workgroup_ballot(value == 0u);
        pending &= ~same;
        tile[tid] = value;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "depends on a value that differs between invocations" // expect-note@+3: "this loop condition depends on a value that differs between invocations" // expect-note@-19: "the result of a subgroup operation differs between subgroups"
        value = (tile[31u - tid] + 1u) & 3u;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "depends on a value that differs between invocations" // expect-note@+1: "this loop condition depends on a value that differs between invocations" // expect-note@-21: "the result of a subgroup operation differs between subgroups"
    } while (pending != 0u);
    values[gl_GlobalInvocationID.x] = value;
}
