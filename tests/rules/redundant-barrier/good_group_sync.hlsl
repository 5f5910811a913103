// HLSL: a transpose through groupshared memory, and a broadcast of one value
// that the first invocation computes.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[16][17];
groupshared float scale;

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
    uint base = (gid.y * 16) * 1024 + gid.x * 16;
    tile[gtid.y][gtid.x] = data[base + gtid.y * 1024 + gtid.x];
    if (gi == 0) scale = data[0];
    GroupMemoryBarrierWithGroupSync();
    float v = tile[gtid.x][gtid.y] * scale;
    GroupMemoryBarrierWithGroupSync();
    tile[gtid.y][gtid.x] = v;
    GroupMemoryBarrierWithGroupSync();
    data[base + gtid.y * 1024 + gtid.x] = tile[gtid.x][gtid.y];
}
