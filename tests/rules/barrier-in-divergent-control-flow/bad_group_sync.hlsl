// HLSL: GroupMemoryBarrierWithGroupSync under a branch on SV_GroupThreadID.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[gtid.x] = data[dtid.x];
    if (gtid.x < 32) {
        GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed // expect-note@-1: "never reach the barrier; the condition depends on SV_GroupThreadID" // expect-note@-3: "SV_GroupThreadID differs between the invocations of a workgroup"
        tile[gtid.x] += tile[gtid.x + 32];
    }
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[0];
}
