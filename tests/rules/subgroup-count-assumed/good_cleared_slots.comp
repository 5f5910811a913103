#version 450
// The slots are cleared before the subgroups store, so reading all 32 adds
// zeros where a target has fewer subgroups.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < 32) partial[tid] = 0.0;
    barrier();
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < 32; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
