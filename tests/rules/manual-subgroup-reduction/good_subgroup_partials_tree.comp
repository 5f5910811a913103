#version 450
// The second stage of a subgroup reduction: the per-subgroup sums combined
// by a short tree. The values come from subgroupAdd() already.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
shared float partial[64];  // one per subgroup, down to 4-wide ones

void main() {
    uint tid = gl_LocalInvocationID.x;
    float sum = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = sum;
    barrier();
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s && tid + s < gl_NumSubgroups) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) x[gl_WorkGroupID.x] = partial[0];
}
