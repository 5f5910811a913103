// HLSL: threads past the end keep their value at 0 and still take part in
// the maximum, so a block of negative values reports 0.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<float> block_max : register(u1);
cbuffer Params : register(b2) { uint count; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = 0.0;
    if (id.x < count) v = values[id.x];
    float m = WaveActiveMax(v);  // expect: reduction-non-identity "the subgroup max takes 0 from the invocations that take no element"
    // expect-note@-2: "0 is chosen here for the invocations outside the range"
    // expect-note@-3: "klint assumes the values can be lower than 0"
    if (WaveIsFirstLane()) block_max[id.x / WaveGetLaneCount()] = m;
}
