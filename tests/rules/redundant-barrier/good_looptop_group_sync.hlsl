// HLSL: the sync at the top of every pass but the first, and the one that
// publishes the cache, are both needed.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint passes; };
groupshared float cache[64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float acc = 0.0;
    for (uint pass = 0; pass < passes; ++pass) {
        if (pass > 0) GroupMemoryBarrierWithGroupSync();
        cache[tid.x] = input[pass * 64 + tid.x];
        GroupMemoryBarrierWithGroupSync();
        acc += cache[63 - tid.x];
    }
    output[dtid.x] = acc;
}
