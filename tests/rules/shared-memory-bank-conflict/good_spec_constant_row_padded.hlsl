// HLSL: the row length is a specialization constant whose default pads the
// row by one float (65), so a column spreads over every bank.
[[vk::constant_id(1)]] const uint ROW = 65;
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[32 * 65];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    for (uint r = 0; r < 32; ++r) tile[r * ROW + tid.x] = data[r * 64 + tid.x];
    GroupMemoryBarrierWithGroupSync();
    float sum = 0.0;
    for (uint c = 0; c < 4; ++c) sum += tile[(tid.x % 32) * ROW + c];
    data[dtid.x] = sum;
}
