// HLSL: each wave publishes WaveActiveAllTrue in its slot, every invocation
// folds its own value with all the slots, and the `continue` on the fold is
// taken by every lane or by none: the lane reads after it see a whole wave.
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
        if (m <= LOW) continue;
        uint lane = WaveGetLaneIndex();
        total += x + WaveReadLaneAt(x, lane ^ 1);
    }
    data[dtid.x] = total;
}
