// HLSL: one invocation computes a row count and a barrier publishes it; every
// wave fills a table of bounds with the same values. Each is read from one
// groupshared location after the barrier, the same in every invocation.
RWStructuredBuffer<uint> data : register(u0);
groupshared uint rows;
groupshared uint bounds[16];
groupshared uint tile[128];

[numthreads(128, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID, uint3 gid : SV_GroupID) {
    if (gi == 0) rows = data[gid.x] * 3 + 1;
    for (uint i = WaveGetLaneIndex(); i < 16; i += WaveGetLaneCount()) bounds[i] = data[i] + 1;
    GroupMemoryBarrierWithGroupSync();
    uint n = rows;
    uint limit = bounds[gid.x % 16];
    for (uint r = 0; r < n; ++r) {
        for (uint k = 0; k < limit; ++k) {
            tile[gi] = r + k;
            GroupMemoryBarrierWithGroupSync();
            data[dtid.x] += tile[127 - gi];
            GroupMemoryBarrierWithGroupSync();
        }
    }
}
