// HLSL: a 16x8 group fills eight rows of 96 in steps of 16; 16 divides 96, so every
// step stays in the row.
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u1);
groupshared float tile[8][96];

[numthreads(16, 8, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    for (uint col = 0; col < 96; col += 16) {
        tile[gtid.y][col + gtid.x] = src[(gid.x * 8 + gtid.y) * 96 + col + gtid.x];
    }
    GroupMemoryBarrierWithGroupSync();
    dst[(gid.x * 8 + gtid.y) * 96 + gtid.x] = tile[gtid.y][gtid.x];
}
