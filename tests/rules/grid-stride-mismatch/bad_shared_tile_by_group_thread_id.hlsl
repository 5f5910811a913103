// HLSL: the same sum with the tile indexed by SV_GroupThreadID, which every
// group may use: nothing says the dispatch has one group along x.
RWStructuredBuffer<float> v : register(u0);
RWStructuredBuffer<float> sums : register(u1);
[[vk::push_constant]] cbuffer Params { uint n; };
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    float acc = 0;
    for (uint i = dtid.x; i < n; i += 64) acc += v[i];  // expect: grid-stride-mismatch confirmed "starts at the global invocation id but steps by the workgroup size (64)" // expect-note@-2: "the loop starts at SV_DispatchThreadID.x" // expect-note: "each iteration adds 64"
    tile[gtid.x] = acc;
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x == 0) {
        float total = 0;
        for (uint k = 0; k < 64; ++k) total += tile[k];
        sums[gid.x] = total;
    }
}
