// HLSL: the guard keeps 48 of the group's 64 invocations.
RWStructuredBuffer<float> data : register(u0);
cbuffer Params : register(b1) { uint rows; };
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    if (gtid.x > 47 || gid.y >= rows) return;
    tile[gtid.x] = data[gid.y * 64 + gtid.x];
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "SV_GroupThreadID" // expect-note@-2: "never reach the barrier; the condition depends on SV_GroupThreadID" // expect-note@-3: "SV_GroupThreadID differs between the invocations of a workgroup"
    data[gid.y * 64 + gtid.x] = tile[47 - gtid.x];
}
