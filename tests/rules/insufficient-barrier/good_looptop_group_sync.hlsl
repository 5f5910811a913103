// HLSL: GroupMemoryBarrier() after each pass's write; the next pass reads only
// after the GroupMemoryBarrierWithGroupSync() at its top.
RWStructuredBuffer<float> data : register(u1);
cbuffer Params : register(b2) { uint passes; };
groupshared float cache[64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[tid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    float v = 0.0;
    for (uint pass = 0; pass < passes; ++pass) {
        if (pass != 0) GroupMemoryBarrierWithGroupSync();
        v += cache[63 - tid.x];
        GroupMemoryBarrierWithGroupSync();
        cache[tid.x] = v;
        GroupMemoryBarrier();
    }
    data[dtid.x] = v;
}
