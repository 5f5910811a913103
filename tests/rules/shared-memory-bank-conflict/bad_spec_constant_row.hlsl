// HLSL: the tile's row length is a specialization constant, judged at its
// default. HLSL cannot leave [numthreads] to the host, so the size the kernel
// runs at is declared; the row is 64 floats, and a column is one bank.
[[vk::constant_id(1)]] const uint ROW = 64;
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[32 * 64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    for (uint r = 0; r < 32; ++r) tile[r * ROW + tid.x] = data[r * ROW + tid.x];
    GroupMemoryBarrierWithGroupSync();
    float sum = 0.0;
    for (uint c = 0; c < 4; ++c) sum += tile[(tid.x % 32) * ROW + c];  // expect: shared-memory-bank-conflict confirmed "32-way bank conflict on 'tile': 32 invocations of a subgroup read different words of bank 0, 256 bytes apart"
    data[dtid.x] = sum;
}
