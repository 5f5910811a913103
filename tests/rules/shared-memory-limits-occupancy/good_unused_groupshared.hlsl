// HLSL: a 31 KiB groupshared cache left declared and never used is dropped
// by compilers, so it limits nothing; the group uses 1 KiB.
// fixture-options: --target=apple-m1
RWStructuredBuffer<float> data : register(u0);
groupshared float old_cache[7936];
groupshared float partial[256];

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    partial[gtid.x] = data[id.x];
    GroupMemoryBarrierWithGroupSync();
    data[id.x] = partial[255 - gtid.x];
}
