// HLSL: the same kernel with the barrier where every invocation reaches it;
// only the read after it is under the branch on the semantic.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[128];

[numthreads(128, 1, 1)]
void main(
    uint3 gtid : SV_GroupThreadId,
    uint3 dtid : SV_DispatchThreadId)
{
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x < 64) {
        data[dtid.x] = tile[gtid.x + 64];
    }
}
