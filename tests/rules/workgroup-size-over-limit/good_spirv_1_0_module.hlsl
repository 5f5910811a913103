// Compiled for Vulkan 1.0 (SPIR-V 1.0): 16x8 invocations fit every device.
// fixture-options: --target-env=vulkan1.0
RWStructuredBuffer<float> data : register(u0);

[numthreads(16, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) { data[id.y * 4096 + id.x] *= 2.0; }
