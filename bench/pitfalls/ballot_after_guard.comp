#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// A subgroup sum inside the bounds check, then used as if every
// invocation of the subgroup had taken part.
// pitfall: subgroup-operation-in-divergent-control-flow
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float means[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n) {
        float s = subgroupAdd(values[i]);
        if (gl_SubgroupInvocationID == 0) means[i / gl_SubgroupSize] = s / float(gl_SubgroupSize);
    }
}
