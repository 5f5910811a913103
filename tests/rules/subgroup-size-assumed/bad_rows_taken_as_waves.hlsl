// HLSL: numthreads(32, 4, 1), a wave taken for each row: SV_GroupThreadID.x
// == 0 stores the row's WaveActiveSum.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<float> rowSums : register(u1);

[numthreads(32, 4, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    uint row = gid.x * 4 + gtid.y;
    float s = WaveActiveSum(values[row * 32 + gtid.x]);
    if (gtid.x == 0) rowSums[row] = s;  // expect: subgroup-size-assumed confirmed "SV_GroupThreadID.x as the subgroup lane of a 32x4x1 workgroup assumes 32-wide subgroups" // expect-note: "decides which invocations run this branch" // expect-note: "which stores a subgroup result"
}
