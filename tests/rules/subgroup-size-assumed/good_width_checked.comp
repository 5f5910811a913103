#version 450
// A fast path for 32-wide subgroups under a check of the width, and a
// portable path for the others. Comparing gl_SubgroupSize with 32 is a check,
// not an assumption.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[gl_WorkGroupSize.x];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (gl_SubgroupSize == 32) {
        if (tid % 32 == 0) partial[tid / 32] = s;
    } else if (subgroupElect()) {
        partial[gl_SubgroupID] = s;
    }
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < gl_NumSubgroups; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
