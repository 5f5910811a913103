#version 450
// The Vulkan minimum guarantees only basic subgroup operations.
// fixture-options: --target=vulkan-1.3-minimum
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    float sum = subgroupAdd(data[gl_GlobalInvocationID.x]);  // expect: subgroup-feature-unsupported "subgroup arithmetic (GL_KHR_shader_subgroup_arithmetic), which vulkan-1.3-minimum does not support"
    data[gl_GlobalInvocationID.x] = sum;
}
