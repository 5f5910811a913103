// HLSL: a group-wide ballot of a 32-invocation group. Where one wave holds
// the group its own ballot is the group's; otherwise the waves publish their
// shifted ballots and fold in each other's. The joined value is the same in
// every invocation, and the loop it bounds runs alike everywhere.
RWStructuredBuffer<uint> values : register(u0);
groupshared uint slots[32];
groupshared uint tile[32];

uint group_ballot(bool p, uint gi) {
    uint mask = WaveActiveBallot(p).x;
    if (WaveGetLaneCount() < 32) {
        uint wave = gi / WaveGetLaneCount();
        mask <<= WaveGetLaneCount() * wave;
        GroupMemoryBarrierWithGroupSync();
        if (WaveIsFirstLane()) slots[wave] = mask;
        GroupMemoryBarrierWithGroupSync();
        uint waves = (32 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
        for (uint i = 1; i < waves; ++i) mask |= slots[i ^ wave];
    }
    return mask;
}

[numthreads(32, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID) {
    uint value = values[dtid.x] & 3;
    uint pending = ~0u;
    do {
        pending &= ~group_ballot(value == 0, gi);
        tile[gi] = value;
        GroupMemoryBarrierWithGroupSync();
        value = (tile[31 - gi] + 1) & 3;
        GroupMemoryBarrierWithGroupSync();
    } while (pending != 0);
    values[dtid.x] = value;
}
