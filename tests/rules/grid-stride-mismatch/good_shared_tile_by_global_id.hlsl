// HLSL: partial sums go to tile[SV_DispatchThreadID.x], a tile as wide as the
// group, so the kernel is written for one group along x.
RWStructuredBuffer<float> v : register(u0);
RWStructuredBuffer<float> sums : register(u1);
[[vk::push_constant]] cbuffer Params { uint n; };
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint3 gid : SV_GroupID) {
    float acc = 0;
    for (uint i = dtid.x; i < n; i += 64) acc += v[i];
    tile[dtid.x] = acc;
    GroupMemoryBarrierWithGroupSync();
    if (dtid.x == 0) {
        float total = 0;
        for (uint k = 0; k < 64; ++k) total += tile[k];
        sums[0] = total;
    }
}
