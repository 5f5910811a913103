// GroupMemoryBarrierWithGroupSync() and AllMemoryBarrierWithGroupSync() include
// groupshared memory; DeviceMemoryBarrierWithGroupSync() with no groupshared
// traffic across it is fine too.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    float v = tile[63 - gtid.x];
    AllMemoryBarrierWithGroupSync();
    tile[gtid.x] = v * 2.0;
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[(gtid.x + 1) % 64];
    DeviceMemoryBarrierWithGroupSync();
    data[dtid.x ^ 1u] += 1.0;
}
