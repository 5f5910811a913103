#version 450
// The seeds' debugging guide: the first subgroup reads one partial per lane
// below num_sg = (tg_size + 31) / 32, which is 8 only for 32-wide subgroups.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float norms[]; };
shared float partial[32];  // enough for 32 subgroups

void main() {
    float v = x[gl_GlobalInvocationID.x];
    float sum_sq = subgroupAdd(v * v);
    if (subgroupElect()) partial[gl_SubgroupID] = sum_sq;
    barrier();
    const uint num_sg = (gl_WorkGroupSize.x + 31) / 32;
    if (gl_SubgroupID == 0) {
        float p = 0.0;
        if (gl_SubgroupInvocationID < num_sg) p = partial[gl_SubgroupInvocationID];  // expect: subgroup-count-assumed confirmed "a guard of 8 reads that many elements of 'partial', one per subgroup, but the workgroup of 256 invocations is not 8 subgroups on qualcomm-adreno-6xx (4 subgroups of 64); arm-mali-valhall (16 subgroups of 16) and intel-xe, lavapipe (32 subgroups of 8)"
        p = subgroupAdd(p);
        if (subgroupElect()) norms[gl_WorkGroupID.x] = sqrt(p);
    }
}
