#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// One partial sum per subgroup, indexed as if every subgroup had 32
// invocations.
// pitfall: subgroup-size-assumed
layout(local_size_x = 128) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float partials[4];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    float s = subgroupAdd(i < p.n ? values[i] : 0.0);
    if (tid % 32 == 0) partials[tid / 32] = s;
    barrier();
    if (tid == 0) sums[gl_WorkGroupID.x] = partials[0] + partials[1] + partials[2] + partials[3];
}
