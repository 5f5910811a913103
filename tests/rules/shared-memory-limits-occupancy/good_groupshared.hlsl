// HLSL: 4 KiB of groupshared memory.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[1024];

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = tile[255 - gtid.x];
}
