// HLSL: the count runs inside WaveIsFirstLane(), where one lane is active, so
// it counts that lane alone instead of the wave.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<uint> counter : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    float v = input[dtid.x];
    if (WaveIsFirstLane()) {
        // expect@+1: subgroup-operation-in-divergent-control-flow confirmed "WaveActiveCountBits in control flow that depends on WaveIsFirstLane()" // expect-note@-1: "never reach WaveActiveCountBits; the condition depends on WaveIsFirstLane()" // expect-note@-1: "WaveIsFirstLane is true in one invocation of each subgroup"
        InterlockedAdd(counter[0], WaveActiveCountBits(v > 0.0));
    }
}
