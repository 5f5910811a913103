#version 450
// The same fold, but started from the invocation's own value instead of its
// subgroup's published OR: each invocation misses the other bits of its own
// subgroup, so the loop runs a different number of times in each.
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
    uint folded = v;
    for (uint i = 1u; i < gl_NumSubgroups; ++i) folded |= slots[i ^ gl_SubgroupID];
    return folded;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint todo = values[gl_GlobalInvocationID.x] & 0xFFu;
    uint pending = workgroup_or(todo);
    while (pending != 0u) {
        uint bit = uint(findLSB(pending));
        tile[tid] = (todo >> bit) & 1u;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "barrier in control flow that depends on gl_GlobalInvocationID" // expect-note@-3: "this loop condition depends on gl_GlobalInvocationID" // expect-note@-5: "differs between the invocations of a workgroup"
        values[gl_GlobalInvocationID.x] += tile[63u - tid];
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "barrier in control flow that depends on gl_GlobalInvocationID" // expect-note@-5: "this loop condition depends on gl_GlobalInvocationID" // expect-note@-7: "differs between the invocations of a workgroup"
        pending &= pending - 1u;
    }
}
