// HLSL: wave operations where every lane of the wave arrives, or under
// conditions the wave agrees on.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
RWStructuredBuffer<uint> counter : register(u2);
cbuffer Params : register(b3) { uint n; };

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 dtid : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 gtid : SV_GroupThreadID) {
    uint tid = dtid.x;
    float v = tid < n ? input[tid] : 0.0;
    float total = WaveActiveSum(v);
    uint positive = WaveActiveCountBits(v > 0.0);  // counted by the whole wave, added by one lane
    if (WaveIsFirstLane()) InterlockedAdd(counter[0], positive);
    if (gid.x == 0 && WaveActiveAnyTrue(v > 1.0)) total = WaveActiveMax(v) + WaveReadLaneFirst(v);  // expect: reduction-non-identity "the subgroup max takes 0 from the invocations that take no element"
    if (tid < n) {
        uint active = WaveActiveCountBits(true);
        output[tid] = v / total + active + WaveReadLaneFirst(v);
    }
    // The first 128 threads are whole waves on every target (Adreno's are up to 128 wide).
    if (gtid.x < 128) output[tid] += WaveActiveMin(v);  // expect: reduction-non-identity "the subgroup min takes 0"
}
