// HLSL wave intrinsics are subgroup operations.
// fixture-options: --target=vulkan-1.3-minimum
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    data[dtid.x] = WaveActiveSum(data[dtid.x]);  // expect: subgroup-feature-unsupported "subgroup arithmetic"
}
