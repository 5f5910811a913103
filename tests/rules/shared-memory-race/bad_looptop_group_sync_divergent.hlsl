// HLSL: the sync at the top of each pass is skipped by the upper half of the
// group, whose next pass can overwrite the cache while others still read it.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
groupshared float cache[128];

[numthreads(128, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float acc = 0.0;
    for (uint pass = 0; pass < 4; ++pass) {
        if (pass != 0 && tid.x < 64) GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow
        cache[tid.x] = input[pass * 128 + tid.x];  // expect: shared-memory-race confirmed "invocation 0 writes cache[0] while invocation 127 reads it" // expect-note@+2: "invocation 127 reads cache[0] here"
        GroupMemoryBarrierWithGroupSync();
        acc += cache[(tid.x + 1) % 128];
    }
    output[dtid.x] = acc;
}
