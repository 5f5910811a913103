// HLSL: each wave publishes WaveActiveAllTrue in its slot (the wave's index
// is SV_GroupIndex / WaveGetLaneCount()), and every invocation folds its own
// value with all the slots. Whether the fold is below the threshold is the
// same everywhere, so the `continue` skips the barrier for every invocation
// or for none.
RWStructuredBuffer<float> data : register(u0);
groupshared float votes[128];
groupshared float tile[128];
static const float LOW = -1.0e30;

[numthreads(128, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID) {
    uint waves = (128 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    for (uint block = 0; block < 8; ++block) {
        float x = data[dtid.x * 8 + block];
        bool all_low = WaveActiveAllTrue(x <= LOW);
        GroupMemoryBarrierWithGroupSync();
        if (WaveIsFirstLane()) votes[gi / WaveGetLaneCount()] = all_low ? LOW : 0.0;
        GroupMemoryBarrierWithGroupSync();
        float m = x;
        for (uint s = 0; s < waves; ++s) m = max(m, votes[s]);
        if (m <= LOW) continue;
        tile[gi] = x;
        GroupMemoryBarrierWithGroupSync();
        data[dtid.x] += tile[127 - gi];
    }
}
