#version 450
// Sized for the narrowest subgroup any target runs (4, a quarter of the
// workgroup) and counted with gl_NumSubgroups.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[gl_WorkGroupSize.x / 4];

void main() {
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_SubgroupID == 0) {
        float t = 0.0;
        for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize) t += partial[i];
        t = subgroupAdd(t);
        if (subgroupElect()) sums[gl_WorkGroupID.x] = t;
    }
}
