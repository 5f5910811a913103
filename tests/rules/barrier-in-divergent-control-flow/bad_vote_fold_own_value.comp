#version 450
// Published votes decide a comparison of the fold only when the vote's
// predicate is the one compared. A condition on the own value alone differs
// between invocations, and so does a fold whose slots voted on another
// threshold: every value may be at most 0.5 while only some are below LOW.
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
    float m = x;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, votes[s]);
    if (x > LOW) {
        tile[tid] = m;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-8: "gl_GlobalInvocationID differs between the invocations of a workgroup"
        m = tile[127u - tid];
    }

    float y = data[gl_GlobalInvocationID.x + 128u];
    bool all_small = subgroupAll(y <= 0.5);
    barrier();
    if (subgroupElect()) votes[gl_SubgroupID] = all_small ? LOW : 0.0;
    barrier();
    float n = y;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) n = max(n, votes[s]);
    if (n <= LOW) return;
    tile[tid] = n + m;
    barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-9: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    data[gl_GlobalInvocationID.x] = tile[127u - tid];
}
