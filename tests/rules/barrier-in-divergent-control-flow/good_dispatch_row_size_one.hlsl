// HLSL: numthreads(64, 1, 1), so SV_DispatchThreadID.y is the group's row and
// the early return on it takes whole groups.
RWStructuredBuffer<float> data : register(u0);
cbuffer Params : register(b1) { uint rows; };
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    if (dtid.y >= rows) return;
    tile[gtid.x] = data[dtid.y * 64 + gtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.y * 64 + gtid.x] = tile[63 - gtid.x];
}
