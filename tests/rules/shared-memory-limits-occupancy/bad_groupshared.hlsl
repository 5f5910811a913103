// HLSL: 16 KiB + 4 KiB of groupshared memory, one threadgroup per Apple core.
// fixture-options: --target=apple-m1
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[4096];
groupshared float extra[1024];

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {  // expect: shared-memory-limits-occupancy "20480 bytes"
    tile[gtid.x] = data[dtid.x];
    extra[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[255 - gtid.x] + extra[gtid.x];
}
