// HLSL: each thread fills its slot, the group syncs, then neighbours are read.
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[tid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = cache[(tid.x + 1) % 64] - cache[tid.x];
}
