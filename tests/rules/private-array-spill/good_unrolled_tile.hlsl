// HLSL: four partial sums per thread in a static array, [unroll]ed loops.
StructuredBuffer<float4> A : register(t0);
RWStructuredBuffer<float4> C : register(u1);
cbuffer Params : register(b2) { uint K; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 acc[4];
    [unroll] for (int r = 0; r < 4; ++r) acc[r] = 0;
    for (uint k = 0; k < K; ++k) {
        [unroll] for (int r = 0; r < 4; ++r) acc[r] += A[(k * 4 + r) * 64 + id.x];
    }
    [unroll] for (int r = 0; r < 4; ++r) C[id.x * 4 + r] = acc[r];
}
