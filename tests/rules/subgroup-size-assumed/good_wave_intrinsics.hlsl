// HLSL with the wave's own lane and width: the last lane is
// WaveGetLaneCount() - 1, the wave is the invocation over the wave width.
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u1);
groupshared uint totals[256];

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    uint scan = WavePrefixSum(input[dtid.x]) + input[dtid.x];
    uint wave = gtid.x / WaveGetLaneCount();
    if (WaveGetLaneIndex() == WaveGetLaneCount() - 1) totals[wave] = scan;
    GroupMemoryBarrierWithGroupSync();
    uint offset = 0;
    for (uint w = 0; w < wave; ++w) offset += totals[w];
    output[dtid.x] = scan + offset;
}
