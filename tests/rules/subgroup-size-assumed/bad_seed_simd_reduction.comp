#version 450
// The seeds' MLX reduction, ported from Metal: simd_lane_id = tid % 32 and
// simd_group_id = tid / 32 with WARP_SIZE 32, simd_sum for subgroupAdd.
#extension GL_KHR_shader_subgroup_arithmetic : require
#define WARP_SIZE 32
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform P { uint n; };
shared float shared_sums[8];  // assuming max 8 SIMD groups

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint num_threads = gl_WorkGroupSize.x;
    uint simd_lane_id = tid % WARP_SIZE;  // expect: subgroup-size-assumed confirmed "'% 32' on gl_LocalInvocationID.x assumes 32-wide subgroups; swiftshader (4 wide); lavapipe (8 wide); intel-xe (8 to 32 wide, chosen per shader); arm-mali-valhall (16 wide) and qualcomm-adreno-6xx (64 wide) run other widths"
    uint simd_group_id = tid / WARP_SIZE;  // expect: subgroup-size-assumed confirmed "'/ 32' on gl_LocalInvocationID.x assumes 32-wide subgroups"
    float thread_sum = 0.0;
    for (uint i = tid; i < n; i += num_threads) thread_sum += x[i];
    thread_sum = subgroupAdd(thread_sum);
    if (simd_lane_id == 0 && simd_group_id < 8) shared_sums[simd_group_id] = thread_sum;
    barrier();
    if (tid == 0) {
        float total_sum = 0.0;
        for (uint i = 0; i < min(8u, (num_threads + 31) / 32); i++) total_sum += shared_sums[i];
        result[0] = total_sum;
    }
}
