// HLSL: a 16x16 group reads its tile by columns; the two rows of threads in
// one wave land on two banks.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[16][16];

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[tid.y][tid.x] = data[dtid.y * 1024 + dtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.y * 1024 + dtid.x] = tile[tid.x][tid.y];  // expect: shared-memory-bank-conflict confirmed "8-way bank conflict on 'tile'"
}
