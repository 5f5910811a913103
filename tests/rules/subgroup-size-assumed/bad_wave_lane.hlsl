// HLSL: the lane and wave of SV_GroupThreadID with a literal 32, and the last
// lane of a wave taken as 31.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float partial[8];

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    uint lane = gtid.x % 32;  // expect: subgroup-size-assumed confirmed "'% 32' on SV_GroupThreadID.x assumes 32-wide subgroups"
    uint wave = gtid.x / 32;  // expect: subgroup-size-assumed confirmed "'/ 32' on SV_GroupThreadID.x"
    float s = WaveActiveSum(input[gid.x * 256 + gtid.x]);
    if (lane == 0) partial[wave] = s;
    float prefix = WavePrefixSum(input[gid.x * 256 + gtid.x]);
    if (WaveGetLaneIndex() == 31) sums[gid.x * 8 + wave] = prefix;  // expect: subgroup-size-assumed confirmed "WaveGetLaneIndex() == 31 (the last lane)"
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x == 0) {
        float total = 0.0;
        for (uint w = 0; w < 8; ++w) total += partial[w];
        sums[gid.x] = total;
    }
}
