#version 450
// A write to a slot after the barrier that published the votes, with no
// barrier before the fold reads it: some invocations read the vote, others
// the new value, and the fold no longer follows the votes.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float votes[128];
shared float tile[128];
const float LOW = -1.0e30;

void main() {
    uint tid = gl_LocalInvocationID.x;
    float x = data[gl_GlobalInvocationID.x];
    bool all_low = subgroupAll(x <= LOW);
    if (subgroupElect()) votes[gl_SubgroupID] = all_low ? LOW : 0.0;
    barrier();
    if (tid == 5u) votes[0] = LOW;
    float m = x;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, votes[s]);
    if (m <= LOW) return;
    tile[tid] = x;
    barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-9: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    data[gl_GlobalInvocationID.x] = tile[127u - tid];
}
