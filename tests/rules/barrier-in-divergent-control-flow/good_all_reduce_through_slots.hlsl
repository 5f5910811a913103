// HLSL: a group-wide maximum built from wave maxima, each wave's in its slot
// (SV_GroupIndex / WaveGetLaneCount()), folded from the wave's own maximum
// with every other slot; the count of waves is computed from the group size.
// Every invocation holds the group's maximum, and the loop it bounds runs
// alike everywhere.
RWStructuredBuffer<uint> values : register(u0);
groupshared uint slots[128];
groupshared uint tile[128];

[numthreads(128, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID) {
    uint waves = (128 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    uint wave = gi / WaveGetLaneCount();
    uint own = values[dtid.x] & 15;
    uint highest = WaveActiveMax(own);
    if (WaveIsFirstLane()) slots[wave] = highest;
    GroupMemoryBarrierWithGroupSync();
    for (uint i = 1; i < waves; ++i) highest = max(highest, slots[i ^ wave]);
    for (uint round = 0; round < highest; ++round) {
        tile[gi] = own + round;
        GroupMemoryBarrierWithGroupSync();
        values[dtid.x] += tile[127 - gi];
        GroupMemoryBarrierWithGroupSync();
    }
}
