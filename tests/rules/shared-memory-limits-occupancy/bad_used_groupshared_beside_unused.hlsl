// HLSL: a 31 KiB cache used beside a 1 KiB array never used: the cache
// alone keeps one group per Apple core.
// fixture-options: --target=apple-m1
RWStructuredBuffer<float> data : register(u0);
groupshared float unused[256];
groupshared float cache[7936];  // expect: shared-memory-limits-occupancy inconclusive "31744 bytes of workgroup memory let only 1 workgroup on apple-m1 stay resident"
// expect-note@-1: "apple-m1 needs 2 workgroups resident to hide memory latency"
// expect-note@-2: "'cache' takes 31744 bytes"

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    for (uint i = gtid.x; i < 7936; i += 256) cache[i] = data[i];
    GroupMemoryBarrierWithGroupSync();
    for (uint j = gtid.x; j < 7936; j += 256) data[j] = cache[7935 - j];
}
