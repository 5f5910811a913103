// HLSL: a 64x4 group accumulates each row into its output in place, but the
// four invocations along y each add the whole row again.
RWStructuredBuffer<float> sums : register(u0);
StructuredBuffer<float> values : register(t1);

[numthreads(64, 4, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    uint row = gid.x * 64 + gtid.x;
    for (uint k = 0; k < 32; ++k) {
        // expect@+1: global-memory-race confirmed "the 4 invocations along y of a 64x4x1 workgroup all write one element" // expect-note@+1: "reads the element here before writing it"
        sums[row] += values[k * 4096 + row];
    }
}
