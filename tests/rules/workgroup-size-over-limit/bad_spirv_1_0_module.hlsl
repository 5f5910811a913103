// Compiled for Vulkan 1.0 (SPIR-V 1.0), whose modules carry the compiler's
// processing notes inside the source text: the finding must still land on the
// line of [numthreads].
// fixture-options: --target-env=vulkan1.0
RWStructuredBuffer<float> data : register(u0);

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit inconclusive "workgroup of 256 invocations (16x16x1) exceeds the limit of swiftshader (128 invocations)"
void main(uint3 id : SV_DispatchThreadID) { data[id.y * 4096 + id.x] *= 2.0; }
