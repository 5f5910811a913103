#version 450
// The votes are published and folded, but no barrier stands between the
// fold and the next iteration's store: invocations that skip ahead overwrite
// slots that slower ones are still reading, so the folds no longer follow
// one round of votes.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float votes[128];
shared float tile[128];
const float LOW = -1.0e30;

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint block = 0u; block < 8u; ++block) {
        float x = data[gl_GlobalInvocationID.x * 8u + block];
        bool all_low = subgroupAll(x <= LOW);
        if (subgroupElect()) votes[gl_SubgroupID] = all_low ? LOW : 0.0;
        barrier();
        float m = x;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, votes[s]);
        if (m <= LOW) continue;
        tile[tid] = x;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "this condition depends on gl_GlobalInvocationID" // expect-note@-8: "gl_GlobalInvocationID differs between the invocations of a workgroup"
        data[gl_GlobalInvocationID.x] += tile[127u - tid];
    }
}
