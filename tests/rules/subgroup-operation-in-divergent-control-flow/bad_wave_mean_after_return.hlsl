// HLSL: after the early return the wave sum covers the threads that stayed,
// but the mean divides it by every lane of the wave, and the "every lane
// agrees" test compares a count of active lanes with the wave's size.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint n; };

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    uint tid = dtid.x;
    if (tid >= n) return;
    float v = input[tid];
    float mean = WaveActiveSum(v) / WaveGetLaneCount();  // expect: subgroup-operation-in-divergent-control-flow confirmed "WaveActiveSum in control flow that depends on SV_DispatchThreadID, so it combines only the active lanes, but its result is used as if every lane of the subgroup took part"
    // expect-note@-3: "never reach WaveActiveSum" // expect-note@-5: "SV_DispatchThreadID differs" // expect-note@-1: "the result meets WaveGetLaneCount() here"
    bool all_positive = WaveActiveCountBits(v > 0.0) == WaveGetLaneCount();  // expect: subgroup-operation-in-divergent-control-flow confirmed "WaveActiveCountBits"
    output[tid] = all_positive ? v - mean : v;
}
