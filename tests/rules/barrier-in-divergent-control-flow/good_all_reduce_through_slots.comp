#version 450
// A workgroup-wide OR built from subgroup ORs: each subgroup publishes its
// OR in its slot, and every invocation folds its own subgroup's OR with every
// other slot (i ^ gl_SubgroupID for i from 1). Every invocation then holds
// the OR of the whole workgroup, so the loop over its bits, with barriers
// inside, runs alike in every invocation.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
shared uint slots[64];
shared uint tile[64];

uint workgroup_or(uint v) {
    uint mask = subgroupOr(v);
    barrier();
    if (subgroupElect()) slots[gl_SubgroupID] = mask;
    barrier();
    for (uint i = 1u; i < gl_NumSubgroups; ++i) mask |= slots[i ^ gl_SubgroupID];
    return mask;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint todo = values[gl_GlobalInvocationID.x] & 0xFFu;
    uint pending = workgroup_or(todo);
    while (pending != 0u) {
        uint bit = uint(findLSB(pending));
        tile[tid] = (todo >> bit) & 1u;
        barrier();
        values[gl_GlobalInvocationID.x] += tile[63u - tid];
        barrier();
        pending &= pending - 1u;
    }
}
