// HLSL: the packed layout is the default, and its path takes 16 columns per
// row where it has room for 8: the second half of one row lands on the next,
// which other invocations write too. klint judges the branch at the
// constant's default (1), so the packed path is the one that runs.
[[vk::constant_id(3)]] const uint PACKED = 1;
RWStructuredBuffer<float4> data : register(u0);
groupshared float2 tile[1024];

void store(uint row, uint column, float2 value) { tile[row * 16 + column] = value; }  // expect: shared-memory-race confirmed "invocations 8 and 16 both write tile[16] with no barrier between"

void load(uint column, uint row) {
    if (PACKED != 0) {
        float4 pair = data[row * 4 + column];
        store(row, column * 2, pair.xy);
        store(row, column * 2 + 1, pair.zw);
        return;
    }
    store(row, column, data[row * 16 + column].xy);
}

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    uint per_row = 16;  // the packed path needs 8
    load(tid.x % per_row, tid.x / per_row);
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = float4(tile[tid.x], 0.0, 0.0);
}
