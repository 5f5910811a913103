// HLSL: a slot per invocation and the wave count from WaveGetLaneCount().
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float partial[128];

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    float s = WaveActiveMax(input[gid.x * 128 + gtid.x]);
    if (WaveIsFirstLane()) partial[gtid.x / WaveGetLaneCount()] = s;
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x == 0) {
        uint waves = (128 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
        float m = partial[0];
        for (uint w = 1; w < waves; ++w) m = max(m, partial[w]);
        sums[gid.x] = m;
    }
}
