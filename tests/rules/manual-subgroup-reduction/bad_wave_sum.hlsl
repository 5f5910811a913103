// HLSL: a groupshared tree in a group of one wave; WaveActiveSum() does it.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float partial[32];

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID) {
    partial[gtid.x] = input[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    // expect@+1: manual-subgroup-reduction "tree reduction over 'partial' runs within 16 invocations: WaveActiveSum() does it"
    for (uint s = 16; s > 0; s >>= 1) {
        if (gtid.x < s) partial[gtid.x] += partial[gtid.x + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gtid.x == 0) sums[gid.x] = partial[0];
}
