// HLSL: each thread folds its strided elements into a minimum that starts
// at 0, then the group folds the partial minimums in groupshared memory:
// positive data always gives 0.
StructuredBuffer<float> depth : register(t0);
RWStructuredBuffer<float> nearest : register(u1);
cbuffer Params : register(b2) { uint count; };
groupshared float partial[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    float m = 0.0;
    for (uint i = gtid.x; i < count; i += 64) m = min(m, depth[i]);
    partial[gtid.x] = m;  // expect: reduction-non-identity "the min of shared 'partial' takes 0 from invocations whose accumulator keeps its starting value" // expect-note@-1: "the accumulator starts at 0, and every iteration folds it into the min" // expect-note@+3: "the array is folded here with min" // expect-note@-1: "klint assumes the values can be higher than 0"
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 32; s > 0; s >>= 1) {  // expect: manual-subgroup-reduction "tree reduction over 'partial'"
        if (gtid.x < s) partial[gtid.x] = min(partial[gtid.x], partial[gtid.x + s]);
        GroupMemoryBarrierWithGroupSync();
    }
    if (gtid.x == 0) nearest[0] = partial[0];
}
