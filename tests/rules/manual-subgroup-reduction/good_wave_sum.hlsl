// HLSL: the sum by a wave intrinsic, and a groupshared tree only over the
// per-wave sums.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float partial[64];  // one per wave, down to 4-wide ones

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID) {
    float sum = WaveActiveSum(input[dtid.x]);
    if (WaveIsFirstLane()) partial[gtid.x / WaveGetLaneCount()] = sum;
    GroupMemoryBarrierWithGroupSync();
    uint waves = (256 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    for (uint s = 32; s > 0; s >>= 1) {
        if (gtid.x < s && gtid.x + s < waves) partial[gtid.x] += partial[gtid.x + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gtid.x == 0) sums[gid.x] = partial[0];
}
