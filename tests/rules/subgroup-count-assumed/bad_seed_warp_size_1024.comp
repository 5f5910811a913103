#version 450
// The seeds' Metal reduction as written, with WARP_SIZE 32 and a threadgroup
// of 1024: 32 groups of 32, of which the guard keeps 8.
#extension GL_KHR_shader_subgroup_arithmetic : require
#define WARP_SIZE 32
layout(local_size_x = 1024) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform P { uint n; };
shared float shared_sums[8];  // assuming max 8 SIMD groups

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint simd_lane_id = tid % WARP_SIZE;   // expect: subgroup-size-assumed "'% 32'"
    uint simd_group_id = tid / WARP_SIZE;  // expect: subgroup-size-assumed "'/ 32'"
    float thread_sum = 0.0;
    for (uint i = tid; i < n; i += gl_WorkGroupSize.x) thread_sum += x[i];
    thread_sum = subgroupAdd(thread_sum);
    if (simd_lane_id == 0 && simd_group_id < 8) {
        shared_sums[simd_group_id] = thread_sum;  // expect: subgroup-count-assumed confirmed "only subgroups below 8 store to 'shared_sums'; the results of the others are dropped when 1024 invocations make 32 subgroups of 32"
    }
    barrier();
    if (tid == 0) {
        float total_sum = 0.0;
        for (uint i = 0; i < 8; i++) total_sum += shared_sums[i];
        result[0] = total_sum;
    }
}
