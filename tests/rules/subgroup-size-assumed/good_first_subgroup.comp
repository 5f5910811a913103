#version 450
// The second stage selects the first subgroup by its id, and a stage of 32
// invocations with no subgroup operation in it is no assumption either.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float res[]; };
shared float partial[gl_WorkGroupSize.x / 4];
shared float scratch[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < 32) scratch[tid] = 0.0;
    float s = subgroupAdd(res[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_SubgroupID == 0) {
        float v = 0.0;
        for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize) v += partial[i];
        v = subgroupAdd(v);
        if (subgroupElect()) res[gl_WorkGroupID.x] = v + scratch[0];
    }
}
