#version 450
// Only lanes below 32 take part: the predicate is false for the others, so
// the first word of the ballot holds every vote, and the shifts stay inside
// the word.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint flags[]; };
layout(std430, binding = 1) writeonly buffer Out { uint masks[]; };

void main() {
    uint lane = gl_SubgroupInvocationID;
    bool on = false;
    if (lane < 32u) on = (flags[gl_WorkGroupID.x] & (1u << lane)) != 0u;  // expect: workgroup-count-over-limit
    uint mask = subgroupBallot(on).x;
    if (subgroupElect()) masks[gl_WorkGroupID.x] = mask;
}
