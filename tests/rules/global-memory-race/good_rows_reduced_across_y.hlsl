// HLSL: the four invocations along y each take a quarter of the row, add in
// groupshared memory, and the first of them stores the sum.
RWStructuredBuffer<float> sums : register(u0);
StructuredBuffer<float> values : register(t1);
groupshared float partial[4][64];

[numthreads(64, 4, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    uint row = gid.x * 64 + gtid.x;
    float s = 0;
    for (uint k = gtid.y; k < 32; k += 4) s += values[k * 4096 + row];
    partial[gtid.y][gtid.x] = s;
    GroupMemoryBarrierWithGroupSync();
    if (gtid.y == 0) sums[row] += partial[0][gtid.x] + partial[1][gtid.x] + partial[2][gtid.x] + partial[3][gtid.x];
}
