// HLSL: a specialization constant picks the packed or the plain layout for
// the whole dispatch; klint judges the branch at the constant's default (the
// plain layout), as it does the index arithmetic, so the packed path's
// stores never meet the plain path's.
[[vk::constant_id(3)]] const uint PACKED = 0;
RWStructuredBuffer<float4> data : register(u0);
groupshared float2 tile[1024];

void store(uint row, uint column, float2 value) { tile[row * 16 + column] = value; }

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
    uint per_row = PACKED != 0 ? 8u : 16u;
    load(tid.x % per_row, tid.x / per_row);
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = float4(tile[tid.x], 0.0, 0.0);
}
