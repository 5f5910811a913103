// HLSL: a histogram kept per group in 8192 bins of groupshared memory, 32 KiB:
// an Apple M1 core, with about 60 KiB, keeps one group resident.
// pitfall: shared-memory-limits-occupancy
cbuffer Params : register(b0) { uint count; };
StructuredBuffer<uint> keys : register(t1);
RWStructuredBuffer<uint> bins : register(u2);
groupshared uint local_bins[8192];

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    for (uint i = gtid.x; i < 8192; i += 256) local_bins[i] = 0;
    GroupMemoryBarrierWithGroupSync();
    if (id.x < count) InterlockedAdd(local_bins[keys[id.x] & 8191u], 1u);
    GroupMemoryBarrierWithGroupSync();
    for (uint j = gtid.x; j < 8192; j += 256) InterlockedAdd(bins[j], local_bins[j]);
}
