// HLSL: the finding sits on the groupshared declaration of 'cache', not on
// this comment that says cache is groupshared.
// fixture-options: --target=apple-m1
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[8192];  // expect: shared-memory-limits-occupancy inconclusive "32768 bytes of workgroup memory let only 1 workgroup on apple-m1 stay resident"
// expect-note@-1: "apple-m1 needs 2 workgroups resident to hide memory latency"
// expect-note@-2: "'cache' takes 32768 bytes"

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    for (uint i = gtid.x; i < 8192; i += 256) cache[i] = data[i];
    GroupMemoryBarrierWithGroupSync();
    for (uint j = gtid.x; j < 8192; j += 256) data[j] = cache[8191 - j];
}
