// HLSL: a row sum with wave intrinsics and groupshared partials.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
// The host splits the rows over dispatches of at most 65,535 groups and
// passes each one's first row.
cbuffer Params : register(b2) { uint n; uint first_row; };
groupshared float partial[128];

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    uint row = gid.x + first_row;
    float sum = 0.0;
    for (uint i = gtid.x; i < n; i += 128) sum += input[row * n + i];
    sum = WaveActiveSum(sum);
    if (WaveIsFirstLane()) partial[gtid.x / WaveGetLaneCount()] = sum;
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x == 0) {
        float total = 0.0;
        for (uint w = 0; w < (128 + WaveGetLaneCount() - 1) / WaveGetLaneCount(); ++w) total += partial[w];
        sums[row] = total;
    }
}
