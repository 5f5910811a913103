// HLSL: a padded 32x33 tile, 4,224 bytes.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[32][33];

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    tile[gtid.x][0] = data[gtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[gtid.x] = tile[31 - gtid.x][0];
}
