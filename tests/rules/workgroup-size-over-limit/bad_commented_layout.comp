#version 450
// The finding belongs on the layout line, not on this comment about local_size_x.
// fixture-options: --target=vulkan-1.3-minimum
layout(local_size_x = 512) in;  // expect: workgroup-size-over-limit inconclusive "512 invocations"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] = 0.0; }
