#version 450
// Each invocation stores its vote in a slot of its own id, so the slots the
// fold reads (0 to gl_NumSubgroups - 1) hold the first invocations' votes,
// all of one subgroup: the other subgroups' values never reach the fold.
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
    votes[tid] = all_low ? LOW : 0.0;
    barrier();
    float m = x;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) m = max(m, votes[s]);
    if (m <= LOW) return;
    tile[tid] = x;
    barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-8: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    data[gl_GlobalInvocationID.x] = tile[127u - tid];
}
