#version 450
// A workgroup size from a specialization constant and an array of
// BLOCK_SIZE / 32: judged at the default, 256.
// fixture-options: --target=nvidia-ampere,arm-mali-valhall
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK_SIZE = 256;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
// glslang gives the store below the line of this declaration, where it
// evaluates BLOCK_SIZE / 32.
// expect@+1: subgroup-count-assumed confirmed "gl_SubgroupID runs past the 8 elements of 'partial' on arm-mali-valhall (16 subgroups of 16)"
shared float partial[BLOCK_SIZE / 32];

void main() {
    float s = subgroupMax(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float m = partial[0];
        for (uint i = 1; i < gl_NumSubgroups; ++i) m = max(m, partial[i]);
        sums[gl_WorkGroupID.x] = m;
    }
}
