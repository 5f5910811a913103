// HLSL: the same early return with numthreads(8, 8, 1): SV_DispatchThreadID.y
// now differs inside a group, which the return splits.
RWStructuredBuffer<float> data : register(u0);
cbuffer Params : register(b1) { uint rows; };
groupshared float tile[64];

[numthreads(8, 8, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID) {
    if (dtid.y >= rows) return;
    tile[gi] = data[dtid.y * 8 + dtid.x];
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed
    data[dtid.y * 8 + dtid.x] = tile[63 - gi];
}
