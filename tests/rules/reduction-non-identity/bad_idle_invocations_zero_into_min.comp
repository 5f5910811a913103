#version 450
// Invocations past the end of the data take 0 into a minimum: the minimum of
// positive distances becomes 0 whenever the last workgroup is not full.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float distance[]; };
layout(binding = 1) writeonly buffer Out { float nearest[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float d = i < n ? distance[i] : 0.0;
    d = subgroupMin(d);  // expect: reduction-non-identity "the subgroup min takes 0 from the invocations that take no element, and 0 is not the identity of a min (+inf is)"
    // expect-note@-2: "0 is chosen here for the invocations outside the range"
    // expect-note@-3: "klint assumes the values can be higher than 0"
    if (subgroupElect()) nearest[gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID] = d;
}
