// fixture-options: --specialization=STRIDE=1
// HLSL: the kernel of good_race_only_at_spec_default.hlsl, given the stride
// it runs with: rows one element apart overlap, and neighbours write the
// same element.
[[vk::constant_id(1)]] const uint STRIDE = 1;
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64 * 2];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    for (uint k = 0; k < 2; ++k) tile[tid.x * STRIDE + k] = data[dtid.x * 2 + k];  // expect: shared-memory-race confirmed "invocations 0 and 1 both write tile[1] with no barrier between"
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[tid.x * STRIDE];
}
