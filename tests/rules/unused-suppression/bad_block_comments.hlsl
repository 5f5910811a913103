// HLSL: a block-comment suppression that silences nothing is reported as a
// line comment's is, and one that silences its finding is not.
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[128];

[numthreads(128, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[tid.x] = data[dtid.x];
    /* klint-ignore-next-line: shared-memory-race -- reviewed: the halo is read stale on purpose */
    float left = tid.x > 0 ? cache[tid.x - 1] : 0.0;
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = cache[tid.x] - left; /* klint-ignore: shared-memory-race -- fixed long ago */  // expect: unused-suppression "suppression of shared-memory-race silences nothing here"
}
