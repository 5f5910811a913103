// HLSL: the barrier outside the branch, reached by every invocation.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID, uint3 gid : SV_GroupID) {
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    if (gtid.x < 32) tile[gtid.x] += tile[gtid.x + 32];
    GroupMemoryBarrierWithGroupSync();
    if (gid.x == 0) {
        tile[gtid.x] = 0.0;
        GroupMemoryBarrierWithGroupSync();
    }
    data[dtid.x] = tile[0];
}
