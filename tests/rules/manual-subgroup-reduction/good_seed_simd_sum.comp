#version 450
// The seeds' fix: each subgroup sums in registers, the first invocation of
// each writes its sum, one invocation adds the per-subgroup sums.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float input_data[]; };
layout(binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform P { uint n; };
shared float shared_sums[256];  // one per subgroup, for subgroups as narrow as one invocation

void main() {
    uint tid = gl_LocalInvocationID.x;
    float thread_sum = 0.0;
    for (uint i = tid; i < n; i += gl_WorkGroupSize.x) thread_sum += input_data[i];
    thread_sum = subgroupAdd(thread_sum);
    if (subgroupElect()) shared_sums[gl_SubgroupID] = thread_sum;
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < gl_NumSubgroups; ++i) total += shared_sums[i];
        result[0] = total;
    }
}
