// HLSL: a group walks its row from SV_GroupThreadID in steps of the group
// size, a row of exactly one group's width is walked from its base, and a
// grid-stride loop takes the dispatch's thread count from a constant buffer.
RWStructuredBuffer<float> data : register(u0);
cbuffer Params : register(b1) { uint n; uint total_threads; };

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 group : SV_GroupID, uint3 dtid : SV_DispatchThreadID) {
    for (uint i = gtid.x; i < n; i += 64) {
        data[group.x * n + i] *= 2.0;
    }
    uint base = group.x * 64;
    for (uint k = base + gtid.x; k < base + 64; k += 64) {
        data[k] -= 1.0;
    }
    for (uint j = dtid.x; j < n; j += total_threads) {
        data[j] += 1.0;
    }
}
