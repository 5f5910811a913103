// HLSL: the row stride is a specialization constant whose default (1) is a
// placeholder the host replaces: at 1 the two elements each invocation
// writes overlap its neighbour's row. klint does not report a race that only
// the default of a constant it was not given makes.
[[vk::constant_id(1)]] const uint STRIDE = 1;
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64 * 2];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    for (uint k = 0; k < 2; ++k) tile[tid.x * STRIDE + k] = data[dtid.x * 2 + k];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[tid.x * STRIDE];
}
