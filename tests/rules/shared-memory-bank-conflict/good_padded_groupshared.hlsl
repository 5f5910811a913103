// HLSL: a transpose through a padded groupshared tile.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[16][17];

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[tid.y][tid.x] = data[dtid.y * 1024 + dtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.y * 1024 + dtid.x] = tile[tid.x][tid.y];
}
