// HLSL GroupMemoryBarrier() (no GroupSync) between writing and reading another
// thread's element of groupshared memory.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrier();  // expect: insufficient-barrier confirmed "GroupMemoryBarrier() orders this invocation's accesses to 'tile'" // expect-note@-1: "'tile' is written here" // expect-note@+1: "'tile' is read here, possibly where another invocation has not written yet"
    data[dtid.x] = tile[63 - gtid.x];
}
