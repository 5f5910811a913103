#version 450
// Linted for 32-wide targets alone: 256 invocations are 8 subgroups on
// each, so 8 slots and a loop over 8 hold.
// fixture-options: --target=nvidia-ampere,apple-m1,amd-rdna2-wave32
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[8];

void main() {
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint i = 0; i < 8; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
