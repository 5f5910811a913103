#version 450
// A workgroup-wide decision: with subgroupAll where one subgroup is the whole
// workgroup, else with a shared counter read after a barrier. Either way every
// invocation decides alike, so the early return splits no workgroup. Inside a
// branch that says one subgroup is the workgroup, votes, broadcasts and
// reductions are the workgroup's.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared uint over;
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float x = data[gl_GlobalInvocationID.x];
    bool done;
    if (gl_SubgroupSize == gl_WorkGroupSize.x) {
        done = subgroupAll(x < 1.0);
    } else {
        if (tid == 0u) over = 0u;
        barrier();
        if (x >= 1.0) atomicAdd(over, 1u);
        barrier();
        done = over == 0u;
    }
    if (done) return;

    // The same fact as an early exit, and as gl_NumSubgroups.
    if (gl_NumSubgroups == 1u) {
        float total = subgroupAdd(x);
        if (total > 64.0 || subgroupAny(x < 0.0)) {
            tile[tid] = x;
            barrier();
            x = tile[63u - tid];
        }
    }
    if (gl_SubgroupSize < 64u) {
        data[gl_GlobalInvocationID.x] = x;
        return;
    }
    float first = subgroupBroadcastFirst(x);
    for (uint i = 0u; float(i) < first; ++i) {
        tile[tid] = x + float(i);
        barrier();
        x = tile[(tid + 1u) % 64u];
        barrier();
    }
    data[gl_GlobalInvocationID.x] = x;
}
