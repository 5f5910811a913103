#version 450
// Compiled for Vulkan 1.0 (SPIR-V 1.0): 128 invocations fit every device.
// fixture-options: --target-env=vulkan1.0
layout(binding = 0) buffer Data {
    float data[];
};

layout(local_size_x = 128) in;

void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
