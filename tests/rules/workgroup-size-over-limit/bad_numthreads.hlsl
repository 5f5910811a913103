// fixture-options: --target=vulkan-1.3-minimum
RWStructuredBuffer<float> data : register(u0);

[numthreads(512, 1, 1)]  // expect: workgroup-size-over-limit inconclusive "512 invocations"
void main(uint3 dtid : SV_DispatchThreadID) { data[dtid.x] = 0.0; }
