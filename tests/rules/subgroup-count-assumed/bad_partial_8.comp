#version 450
// One slot per subgroup, sized for 8: right for 256 invocations in 32-wide
// subgroups only. Narrower subgroups overrun the array; Adreno's 4 subgroups
// leave half of it unwritten, and the loop adds it anyway.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[8];

void main() {
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;  // expect: subgroup-count-assumed confirmed "gl_SubgroupID runs past the 8 elements of 'partial' on arm-mali-valhall (16 subgroups of 16) and intel-xe, lavapipe (32 subgroups of 8)"
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint i = 0; i < 8; ++i) total += partial[i];  // expect: subgroup-count-assumed confirmed "loop reads 8 elements of 'partial', one per subgroup, but the workgroup of 256 invocations is not 8 subgroups on qualcomm-adreno-6xx (4 subgroups of 64)"
        sums[gl_WorkGroupID.x] = total;
    }
}
