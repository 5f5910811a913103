// HLSL: lanes past n return before the wave sum, which then covers the rest:
// each value is normalised by the sum of the values that exist, which is what
// a sum over the active lanes gives. So do a prefix sum for compaction and a
// ballot after the same early return.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint n; };

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    uint tid = dtid.x;
    if (tid >= n) return;
    float total = WaveActiveSum(input[tid]);
    uint slot = WavePrefixCountBits(input[tid] > 0.0) + WaveActiveCountBits(input[tid] > 1.0);
    uint4 ballot = WaveActiveBallot(input[tid] > 2.0);
    output[tid] = input[tid] / total + WavePrefixSum(input[tid]) + slot + countbits(ballot.x) + countbits(ballot.y);
}
