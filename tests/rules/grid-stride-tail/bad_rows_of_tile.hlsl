// HLSL: a 16x8 group fills eight rows of 100 in steps of 16; each thread steps
// along x by 16 and only the counter is checked, so the last step (96)
// reaches columns 100 to 111: the next row's first twelve, and past the
// end for the last row.
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u1);
groupshared float tile[8][100];

[numthreads(16, 8, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    for (uint col = 0; col < 100; col += 16) {
        tile[gtid.y][col + gtid.x] = src[(gid.x * 8 + gtid.y) * 100 + col + gtid.x];  // expect: grid-stride-tail confirmed "index col + SV_GroupThreadID.x goes past the end of an array of 100: on the last iteration ('col' = 96) the invocations from 4 to 15 along x index 100 to 111" // expect: shared-memory-race "invocations (4, 0) and (0, 1) both write tile[1][0]"
    }
    GroupMemoryBarrierWithGroupSync();
    dst[(gid.x * 8 + gtid.y) * 100 + gtid.x] = tile[gtid.y][gtid.x];
}
