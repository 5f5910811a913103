#version 450
// Basic subgroup operations are required of every Vulkan 1.1+ device.
// fixture-options: --target=vulkan-1.3-minimum
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint data[]; };
void main() {
    if (subgroupElect()) data[gl_SubgroupID] = gl_SubgroupSize;
}
