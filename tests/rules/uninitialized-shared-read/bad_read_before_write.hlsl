// HLSL: the previous value is read before any thread stored one.
RWStructuredBuffer<float> data : register(u0);
groupshared float history[64];

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    // expect@+1: uninitialized-shared-read confirmed "reads history[0], but no invocation writes 'history' before this read"
    float previous = history[tid.x];
    GroupMemoryBarrierWithGroupSync();  // expect: redundant-barrier "barrier between accesses that no two invocations make to the same element" // expect-note@-1: "'history' read here before the barrier" // expect-note@+1: "written here after it; no other invocation touches these elements on the other side"
    history[tid.x] = data[dtid.x];
    data[dtid.x] = previous;
}
