#version 450
// The size comes from a specialization constant whose default is too large.
// fixture-options: --target=vulkan-1.3-minimum
layout(local_size_x_id = 0) in;  // expect: workgroup-size-over-limit inconclusive "256 invocations (256x1x1) exceeds the limit of vulkan-1.3-minimum (128 invocations)"
layout(constant_id = 0) const uint BLOCK_SIZE = 256;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] = float(BLOCK_SIZE); }
