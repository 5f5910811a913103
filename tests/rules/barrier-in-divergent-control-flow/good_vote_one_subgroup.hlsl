// HLSL: where one wave is the whole group, WaveActiveAllTrue decides for the
// group; elsewhere a groupshared counter read after a barrier does. A
// broadcast from the wave, or a slot published after a barrier, bounds a loop
// with barriers in it.
RWStructuredBuffer<uint> data : register(u0);
groupshared uint over;
groupshared uint count;
groupshared uint tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    uint v = data[dtid.x];
    bool done;
    if (WaveGetLaneCount() == 64) {
        done = WaveActiveAllTrue(v < 10);
    } else {
        if (gtid.x == 0) over = 0;
        GroupMemoryBarrierWithGroupSync();
        if (v >= 10) InterlockedAdd(over, 1);
        GroupMemoryBarrierWithGroupSync();
        done = over == 0;
    }
    if (done) return;

    if (gtid.x == 0) count = v;
    GroupMemoryBarrierWithGroupSync();
    uint n = WaveGetLaneCount() >= 64 ? WaveReadLaneFirst(v) : count;
    for (uint i = 0; i < n; ++i) {
        tile[gtid.x] = i;
        GroupMemoryBarrierWithGroupSync();
        data[dtid.x] += tile[63 - gtid.x];
        GroupMemoryBarrierWithGroupSync();
    }
}
