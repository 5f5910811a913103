#version 450
// Each subgroup votes whether all its scores are below a threshold and
// publishes the vote; every invocation folds its own score with every
// subgroup's slot and skips the block when the fold is below. That decision is
// the same in the whole workgroup, so in each subgroup too: the butterfly
// after it runs with every lane active.
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
        if (m <= LOW) continue;
        for (uint d = 4u; d > 0u; d >>= 1) x += subgroupShuffleXor(x, d);
        total += x;
    }
    data[gl_GlobalInvocationID.x] = total;
}
