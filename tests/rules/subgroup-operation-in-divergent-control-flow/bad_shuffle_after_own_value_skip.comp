#version 450
// The same loop, but the skip tests the invocation's own score, not the fold
// of the published votes: lanes skip on their own, and the butterfly reads
// lanes that left.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float votes[128];
const float LOW = -1.0e30;

void main() {
    float total = 0.0;
    for (uint block = 0u; block < 8u; ++block) {
        float x = data[gl_GlobalInvocationID.x * 8u + block];
        bool all_low = subgroupAll(x <= LOW);
        barrier();
        if (subgroupElect()) votes[gl_SubgroupID] = all_low ? LOW : 0.0;
        barrier();
        float m = x;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, votes[s]);
        if (x <= LOW) continue;
        // expect@+1: subgroup-operation-in-divergent-control-flow inconclusive "subgroupShuffleXor in control flow that depends on gl_GlobalInvocationID" // expect-note@-1: "this condition depends on gl_GlobalInvocationID" // expect-note@-8: "differs between the invocations of a subgroup"
        for (uint d = 4u; d > 0u; d >>= 1) x += subgroupShuffleXor(x, d);
        total += x + m;
    }
    data[gl_GlobalInvocationID.x] = total;
}
