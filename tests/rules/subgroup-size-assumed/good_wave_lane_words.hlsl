// HLSL: the same counts with WaveActiveCountBits, which reads every word of
// the wave's ballot.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<uint> totals : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    bool positive = values[dtid.x] > 0;
    uint votes = WaveActiveCountBits(positive);
    if (WaveIsFirstLane()) InterlockedAdd(totals[0], votes);
    if (positive) InterlockedAdd(totals[1], 1u);
}
