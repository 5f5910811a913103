// HLSL: 16 KiB + 16 KiB of groupshared memory, one threadgroup per Apple core
// (about 60 KiB each, measured).
// fixture-options: --target=apple-m1
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[4096];  // expect: shared-memory-limits-occupancy inconclusive "32768 bytes"
groupshared float extra[4096];

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[gtid.x] = data[dtid.x];
    extra[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[255 - gtid.x] + extra[gtid.x];
}
