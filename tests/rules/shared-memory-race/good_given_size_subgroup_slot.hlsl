// HLSL: SUBGROUP_SIZE is set by the host to the device's wave width
// (--subgroup-size-constant, by constant_id): each wave's first lane stores
// its sum in the wave's own slot, at every width the targets run.
// fixture-options: --subgroup-size-constant=3
[[vk::constant_id(3)]] const uint SUBGROUP_SIZE = 32;
RWStructuredBuffer<float> data : register(u0);
groupshared float partial[8];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID) {
    float s = WaveActiveSum(data[dtid.x]);
    if (tid.x % SUBGROUP_SIZE == 0) partial[tid.x / SUBGROUP_SIZE] = s;
    GroupMemoryBarrierWithGroupSync();
    if (tid.x == 0) {
        float sum = 0.0;
        for (uint i = 0; i < 64 / SUBGROUP_SIZE; ++i) sum += partial[i];
        data[gid.x] = sum;
    }
}
