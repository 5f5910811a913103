// An HLSL tree reduction without group syncs between its steps.
// pitfall: shared-memory-race
struct Params { uint n; };
[[vk::push_constant]] ConstantBuffer<Params> p;
[[vk::binding(0)]] StructuredBuffer<float> values;
[[vk::binding(1)]] RWStructuredBuffer<float> sums;
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 local : SV_GroupThreadID, uint3 global : SV_DispatchThreadID) {
    uint tid = local.x;
    tile[tid] = global.x < p.n ? values[global.x] : 0.0;
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s) tile[tid] += tile[tid + s];
    }
    if (tid == 0) sums[group.x] = tile[0];
}
