// HLSL: the left neighbour's value is read before the group syncs.
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[128];

[numthreads(128, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[tid.x] = data[dtid.x];
    // expect@+1: shared-memory-race confirmed "invocation 1 reads cache[0] while invocation 0 writes it" // expect-note@-1: "invocation 0 writes cache[0] here"
    float left = tid.x > 0 ? cache[tid.x - 1] : 0.0;
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = cache[tid.x] - left;
}
