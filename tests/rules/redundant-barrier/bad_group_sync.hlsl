// HLSL: two group syncs in a row, and one after each invocation only touched
// its own slot.
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    float mirrored = cache[63 - gtid.x];
    GroupMemoryBarrierWithGroupSync();
    GroupMemoryBarrierWithGroupSync();  // expect: redundant-barrier "since the previous barrier"
    cache[gtid.x] = mirrored * 2.0;
    GroupMemoryBarrierWithGroupSync();  // expect: redundant-barrier "no two invocations make to the same element"
    data[dtid.x] = cache[gtid.x];
}
