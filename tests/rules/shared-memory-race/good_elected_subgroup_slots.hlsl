// HLSL: one lane per wave stores the wave's sum, the group syncs, the first
// thread combines them, and the group syncs again before reading the total.
RWStructuredBuffer<float> data : register(u0);
groupshared float partial[64];
groupshared float total;

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float sum = WaveActiveSum(data[dtid.x]);
    if (WaveIsFirstLane()) partial[tid.x / WaveGetLaneCount()] = sum;
    GroupMemoryBarrierWithGroupSync();
    if (tid.x == 0) {
        float t = 0.0;
        for (uint w = 0; w < (64 + WaveGetLaneCount() - 1) / WaveGetLaneCount(); ++w) t += partial[w];
        total = t;
    }
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = data[dtid.x] / total;
}
