#version 450
// The width is a specialization constant the application sets to the
// device's subgroup size (and requests with requiredSubgroupSize).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(constant_id = 0) const uint BLOCK_SIZE = 256;
layout(constant_id = 1) const uint SUBGROUP_SIZE = 32;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[BLOCK_SIZE / SUBGROUP_SIZE];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (tid % SUBGROUP_SIZE == 0) partial[tid / SUBGROUP_SIZE] = s;
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < BLOCK_SIZE / SUBGROUP_SIZE; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
