// HLSL: the skip tests the lane's own value, so the lane read after it may
// name a lane that skipped.
RWStructuredBuffer<float> data : register(u0);
groupshared float votes[128];
static const float LOW = -1.0e30;

[numthreads(128, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID) {
    uint waves = (128 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    float total = 0;
    for (uint block = 0; block < 8; ++block) {
        float x = data[dtid.x * 8 + block];
        bool all_low = WaveActiveAllTrue(x <= LOW);
        GroupMemoryBarrierWithGroupSync();
        if (WaveIsFirstLane()) votes[gi / WaveGetLaneCount()] = all_low ? LOW : 0.0;
        GroupMemoryBarrierWithGroupSync();
        float m = x;
        for (uint s = 0; s < waves; ++s) m = max(m, votes[s]);
        if (x <= LOW) continue;
        uint lane = WaveGetLaneIndex();
        // expect@+1: subgroup-operation-in-divergent-control-flow inconclusive "WaveReadLaneAt in control flow that depends on SV_DispatchThreadID" // expect-note@-2: "this condition depends on SV_DispatchThreadID" // expect-note@-13: "differs between the invocations of a subgroup"
        total += m + WaveReadLaneAt(x, lane ^ 1);
    }
    data[dtid.x] = total;
}
