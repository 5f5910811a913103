// HLSL: a guard on SV_GroupThreadID that no invocation of a 64-wide group
// takes, beside the group's own row.
RWStructuredBuffer<float> data : register(u0);
cbuffer Params : register(b1) { uint rows; };
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    if (gtid.x > 63 || gid.y >= rows) return;
    tile[gtid.x] = data[gid.y * 64 + gtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[gid.y * 64 + gtid.x] = tile[63 - gtid.x];
}
