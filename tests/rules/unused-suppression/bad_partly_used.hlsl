// HLSL: one suppression names two rules; only one of them fires on the line.
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[128];

[numthreads(128, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[tid.x] = data[dtid.x];
    // expect@+1: unused-suppression "suppression of redundant-barrier silences nothing here"
    // klint-ignore-next-line: shared-memory-race, redundant-barrier -- reviewed: the halo is read stale on purpose
    float left = tid.x > 0 ? cache[tid.x - 1] : 0.0;
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = cache[tid.x] - left;
}
