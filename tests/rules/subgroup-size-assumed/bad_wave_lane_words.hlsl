// HLSL: the first uint of WaveActiveBallot read alone, and a bit made by
// shifting by WaveGetLaneIndex(): both take a wave for at most 32 lanes.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<uint> totals : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    bool positive = values[dtid.x] > 0;
    uint votes = WaveActiveBallot(positive).x;  // expect: subgroup-size-assumed not-reproduced "only the first word of a ballot is read" // expect-note: "the ballot is taken here"
    uint mine = 1u << WaveGetLaneIndex();  // expect: subgroup-size-assumed not-reproduced "a 32-bit shift by WaveGetLaneIndex() is undefined for lanes 32 and up"
    if (WaveIsFirstLane()) InterlockedAdd(totals[0], countbits(votes));
    if ((votes & mine) != 0) InterlockedAdd(totals[1], 1u);
}
