// HLSL: the host sets the number of writers to 1, by constant_id
// (--specialization=0=1), and gives each of 64 slots a writer of its own.
// fixture-options: --specialization=0=1,1=64
[[vk::constant_id(0)]] const uint WRITERS = 4;
[[vk::constant_id(1)]] const uint SLOTS = 16;
RWStructuredBuffer<float> data : register(u0);
groupshared float total;
groupshared float slot[64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 gid : SV_GroupID) {  // expect: workgroup-count-over-limit
    if (tid.x < WRITERS) total = data[tid.x];
    slot[tid.x % SLOTS] = data[tid.x];
    GroupMemoryBarrierWithGroupSync();
    data[gid.x] = total + slot[63 - tid.x];
}
