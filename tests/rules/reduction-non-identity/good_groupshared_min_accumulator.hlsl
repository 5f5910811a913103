// HLSL: each thread folds its strided elements into a minimum that starts
// at the largest float, then the group folds the partial minimums in
// groupshared memory.
StructuredBuffer<float> depth : register(t0);
RWStructuredBuffer<float> nearest : register(u1);
cbuffer Params : register(b2) { uint count; };
groupshared float partial[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    float m = 3.402823466e+38;
    for (uint i = gtid.x; i < count; i += 64) m = min(m, depth[i]);
    partial[gtid.x] = m;
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 32; s > 0; s >>= 1) {  // expect: manual-subgroup-reduction "tree reduction over 'partial'"
        if (gtid.x < s) partial[gtid.x] = min(partial[gtid.x], partial[gtid.x + s]);
        GroupMemoryBarrierWithGroupSync();
    }
    if (gtid.x == 0) nearest[0] = partial[0];
}
