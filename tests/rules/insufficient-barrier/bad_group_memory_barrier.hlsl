// HLSL GroupMemoryBarrier() (no GroupSync) between writing and reading another
// thread's element of groupshared memory.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrier();  // expect: insufficient-barrier "GroupMemoryBarrier() orders this invocation's accesses to 'tile'"
    data[dtid.x] = tile[63 - gtid.x];
}
