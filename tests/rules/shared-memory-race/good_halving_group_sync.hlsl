// HLSL: a grid-stride loop whose body is skipped, by the whole group at once,
// for items past the count; inside it a halving reduction syncs after every
// step.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint items; uint count; };
groupshared float partial[72];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
    for (uint item = gid.x; item < items; item += 8) {
        if (item >= count) continue;
        partial[tid.x] = input[item * 64 + tid.x];
        GroupMemoryBarrierWithGroupSync();
        for (uint stride = 4; stride > 0; stride >>= 1) {  // expect: manual-subgroup-reduction
            if ((tid.x % 8) < stride) partial[tid.x] += partial[tid.x + stride];
            GroupMemoryBarrierWithGroupSync();
        }
        if ((tid.x % 8) == 0) output[item * 8 + tid.x / 8] = partial[tid.x];
    }
}
