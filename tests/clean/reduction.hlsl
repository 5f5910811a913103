// HLSL: a row sum with wave intrinsics and groupshared partials.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
cbuffer Params : register(b2) { uint n; };
groupshared float partial[128];

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    float sum = 0.0;
    for (uint i = gtid.x; i < n; i += 128) sum += input[gid.x * n + i];
    sum = WaveActiveSum(sum);
    if (WaveIsFirstLane()) partial[gtid.x / WaveGetLaneCount()] = sum;
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x == 0) {
        float total = 0.0;
        for (uint w = 0; w < (128 + WaveGetLaneCount() - 1) / WaveGetLaneCount(); ++w) total += partial[w];
        sums[gid.x] = total;
    }
}
