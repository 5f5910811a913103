#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// The partials of each subgroup, summed over a count fixed for 32-wide
// subgroups.
// pitfall: subgroup-count-assumed
layout(local_size_x = 256) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float partials[64];

void main() {
    uint i = gl_GlobalInvocationID.x;
    float s = subgroupAdd(i < p.n ? values[i] : 0.0);
    if (subgroupElect()) partials[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint k = 0; k < 8; ++k) total += partials[k];
        sums[gl_WorkGroupID.x] = total;
    }
}
