// HLSL: the same fold with no barrier between the slots' stores and the
// fold: it reads slots other waves may not have written yet, so the maximum
// may differ between waves.
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
    for (uint i = 1; i < waves; ++i) highest = max(highest, slots[i ^ wave]);
    for (uint round = 0; round < highest; ++round) {
        tile[gi] = own + round;
        GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "barrier in control flow that depends on" // expect-note@-2: "this loop condition depends on SV_GroupIndex" // expect-note@-9: "differs between the invocations of a workgroup"
        values[dtid.x] += tile[127 - gi];
        GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "barrier in control flow that depends on" // expect-note@-4: "this loop condition depends on SV_GroupIndex" // expect-note@-11: "differs between the invocations of a workgroup"
    }
}
