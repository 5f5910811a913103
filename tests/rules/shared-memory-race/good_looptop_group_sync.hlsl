// HLSL: the group syncs at the top of every pass but the first, which orders
// the previous pass's reads of the cache before this pass overwrites it.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint passes; };
groupshared float cache[128];

[numthreads(128, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float acc = 0.0;
    for (uint pass = 0; pass < passes; ++pass) {
        if (pass != 0) GroupMemoryBarrierWithGroupSync();
        cache[tid.x] = input[pass * 128 + tid.x];
        GroupMemoryBarrierWithGroupSync();
        acc += cache[(tid.x + 1) % 128];
    }
    output[dtid.x] = acc;
}
