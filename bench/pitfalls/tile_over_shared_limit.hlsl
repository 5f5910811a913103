// The same tiles in HLSL: two 64x96 groupshared float tiles, 49152 bytes.
// pitfall: shared-memory-over-limit
cbuffer Params : register(b0) { uint N; };
StructuredBuffer<float> A : register(t1);
StructuredBuffer<float> B : register(t2);
RWStructuredBuffer<float> C : register(u3);
groupshared float TileA[64 * 96];
groupshared float TileB[64 * 96];

[numthreads(16, 8, 1)]
void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex) {
    for (uint i = index; i < 64 * 96; i += 128) {
        TileA[i] = A[i];
        TileB[i] = B[i];
    }
    GroupMemoryBarrierWithGroupSync();
    float sum = 0;
    for (uint k = 0; k < 96; ++k) sum += TileA[(id.y % 64) * 96 + k] * TileB[(id.x % 64) * 96 + k];
    if (id.x < N && id.y < N) C[id.y * N + id.x] = sum;
}
