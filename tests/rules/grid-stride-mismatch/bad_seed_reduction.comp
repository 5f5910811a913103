#version 450
// The seeds' sum reduction: each invocation sums a strided slice that starts
// at its global index but steps by the workgroup size, so with more than one
// workgroup the later elements are added several times.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float input_[]; };
layout(binding = 1) buffer Out { float total; };
layout(push_constant) uniform P { uint n; };
shared float shared_sums[8];

void main() {
    uint tid = gl_GlobalInvocationID.x;
    uint num_threads = 256;
    float thread_sum = 0.0;
    for (uint i = tid; i < n; i += num_threads) {  // expect: grid-stride-mismatch confirmed
        thread_sum += input_[i];
    }
    thread_sum = subgroupAdd(thread_sum);
    // expect@+1: subgroup-count-assumed "gl_SubgroupID runs past the 8 elements of 'shared_sums'"
    if (subgroupElect()) shared_sums[gl_SubgroupID] = thread_sum;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float sum = 0.0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) sum += shared_sums[s];
        total = sum;
    }
}
