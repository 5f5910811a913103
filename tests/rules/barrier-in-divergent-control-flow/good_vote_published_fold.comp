#version 450
// Each subgroup votes whether all its values are below a threshold, one
// invocation of each publishes the vote, and after a barrier every invocation
// folds its own value with every subgroup's slot. The fold differs between
// invocations, but whether it is below the threshold does not: if every
// subgroup voted yes, every value is below and so is every fold; if one voted
// no, its slot lifts every fold above.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float votes[128];
shared uint counts[128];
shared float tile[128];
const float LOW = -1.0e30;

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint block = 0u; block < 8u; ++block) {
        float x = data[gl_GlobalInvocationID.x * 8u + block];
        bool all_low = subgroupAll(x <= LOW);
        barrier();
        if (subgroupElect()) votes[gl_SubgroupID] = all_low ? LOW : 0.0;
        barrier();
        float m = x;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, votes[s]);
        if (m <= LOW) continue;  // the same in every invocation: skip the block together
        tile[tid] = x;
        barrier();
        data[gl_GlobalInvocationID.x] += tile[127u - tid];
    }

    // subgroupAny of the opposite, lane 0 as the writer, the fold apart from
    // the own value, and integers.
    uint n = uint(data[gl_GlobalInvocationID.x]);
    bool some_high = subgroupAny(n >= 16u);
    if (gl_SubgroupInvocationID == 0u) counts[gl_SubgroupID] = some_high ? 16u : 0u;
    barrier();
    uint highest = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) highest = max(highest, counts[s]);
    if (max(n, highest) < 16u) return;  // every n < 16, or some slot holds 16
    tile[tid] = float(n);
    barrier();
    data[gl_GlobalInvocationID.x] = tile[127u - tid];
}
