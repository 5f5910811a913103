#version 450
// A workgroup-wide ballot: where one subgroup is the workgroup, its own
// ballot already is; otherwise the subgroups publish their shifted ballots
// and fold in each other's. The value after the branch joins two values each
// the same in every invocation, so the loop it bounds, with barriers inside,
// runs alike everywhere.
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
shared uint slots[32];
shared uint tile[32];

uint workgroup_ballot(bool p) {
    uint mask = subgroupBallot(p).x;
    if (gl_SubgroupSize < gl_WorkGroupSize.x) {
        mask <<= gl_SubgroupSize * gl_SubgroupID;
        barrier();
        if (subgroupElect()) slots[gl_SubgroupID] = mask;
        barrier();
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
        barrier();
        value = (tile[31u - tid] + 1u) & 3u;
        barrier();
    } while (pending != 0u);
    values[gl_GlobalInvocationID.x] = value;
}
