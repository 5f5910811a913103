// HLSL: whole-vector comparisons of SV_GroupThreadID pick the first thread
// and a 3 x 3 corner of the group.
RWStructuredBuffer<uint> data : register(u0);
groupshared uint total;
groupshared uint corner[9];

[numthreads(8, 8, 1)]
void main(uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex) {
    if (all(tid == 0)) total = 0;
    if (all(tid.xy < 3)) corner[tid.y * 3 + tid.x] = data[gi];
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(total, corner[gi % 9]);
    GroupMemoryBarrierWithGroupSync();
    data[gi] = total;
}
