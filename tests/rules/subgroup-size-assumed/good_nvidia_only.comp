#version 450
// Linted for NVIDIA alone, whose warps are 32 wide: the literal holds there.
// fixture-options: --target=nvidia-ampere,nvidia-ada
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[8];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (tid % 32 == 0) partial[tid / 32] = s;
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < 8; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
