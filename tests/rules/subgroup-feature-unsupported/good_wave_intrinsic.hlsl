// Wave intrinsics on the default targets, which all have subgroup arithmetic.
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    data[dtid.x] = WaveActiveSum(data[dtid.x]);
}
