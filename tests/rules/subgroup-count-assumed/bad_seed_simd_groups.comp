#version 450
// The seeds' reduction with its "assuming max 8 SIMD groups", written with
// Vulkan's subgroup built-ins: the guard keeps the array in bounds but drops
// the sums of subgroups past the eighth, and the loop over 8 reads slots
// Adreno's 4 subgroups never wrote.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform P { uint n; };
shared float shared_sums[8];  // assuming max 8 SIMD groups

void main() {
    uint tid = gl_LocalInvocationID.x;
    float thread_sum = 0.0;
    for (uint i = tid; i < n; i += gl_WorkGroupSize.x) thread_sum += x[i];
    thread_sum = subgroupAdd(thread_sum);
    if (gl_SubgroupInvocationID == 0 && gl_SubgroupID < 8) {
        shared_sums[gl_SubgroupID] = thread_sum;  // expect: subgroup-count-assumed confirmed "only subgroups below 8 store to 'shared_sums'; the results of the others are dropped on arm-mali-valhall (16 subgroups of 16) and intel-xe, lavapipe (32 subgroups of 8)"
    }
    barrier();
    if (tid == 0) {
        float total_sum = 0.0;
        for (uint i = 0; i < 8; i++) total_sum += shared_sums[i];  // expect: subgroup-count-assumed confirmed "on qualcomm-adreno-6xx (4 subgroups of 64)"
        result[0] = total_sum;
    }
}
