// HLSL: a 32x4 group where each wave elects its first lane with
// WaveIsFirstLane and adds its part of the row atomically.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<uint> rowCounts : register(u1);

[numthreads(32, 4, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    uint row = gid.x * 4 + gtid.y;
    bool positive = values[row * 32 + gtid.x] > 0;
    for (uint r = 0; r < 4; ++r) {
        uint count = WaveActiveCountBits(positive && gtid.y == r);
        if (WaveIsFirstLane()) InterlockedAdd(rowCounts[gid.x * 4 + r], count);
    }
}
