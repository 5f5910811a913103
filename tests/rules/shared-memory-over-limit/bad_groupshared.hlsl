// HLSL groupshared memory over the limit: 2 * 64 * 65 * 4 = 33,280 bytes.
RWStructuredBuffer<float> data : register(u0);
groupshared float a_tile[64][65];  // expect: shared-memory-over-limit confirmed "33280 bytes"
groupshared float b_tile[64][65];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    a_tile[gtid.x][0] = data[gtid.x];
    b_tile[gtid.x][0] = data[gtid.x + 64];
    GroupMemoryBarrierWithGroupSync();
    data[gtid.x] = a_tile[63 - gtid.x][0] + b_tile[gtid.x][0];
}
