// HLSL: one slot per wave, counted as invocation / WaveGetLaneCount(), in an
// array sized for 8 waves.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float partial[8];

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    float s = WaveActiveSum(input[gid.x * 256 + gtid.x]);
    if (WaveIsFirstLane()) partial[gtid.x / WaveGetLaneCount()] = s;  // expect: subgroup-count-assumed confirmed "SV_GroupThreadID.x / WaveGetLaneCount() runs past the 8 elements of 'partial' on arm-mali-valhall (16 subgroups of 16) and intel-xe, lavapipe (32 subgroups of 8)"
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x == 0) {
        float total = 0.0;
        for (uint w = 0; w < 8; ++w) total += partial[w];  // expect: subgroup-count-assumed confirmed "loop reads 8 elements of 'partial'"
        sums[gid.x] = total;
    }
}
