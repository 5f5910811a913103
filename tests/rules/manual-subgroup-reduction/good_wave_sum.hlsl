// HLSL: the sum by a wave intrinsic, and a groupshared tree only over the
// per-wave sums.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float partial[8];

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID) {
    float sum = WaveActiveSum(input[dtid.x]);
    if (WaveIsFirstLane() && gtid.x / WaveGetLaneCount() < 8) partial[gtid.x / WaveGetLaneCount()] = sum;
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 4; s > 0; s >>= 1) {
        if (gtid.x < s) partial[gtid.x] += partial[gtid.x + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gtid.x == 0) sums[gid.x] = partial[0];
}
