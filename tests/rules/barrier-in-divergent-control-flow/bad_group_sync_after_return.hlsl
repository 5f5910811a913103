// HLSL: an early return before GroupMemoryBarrierWithGroupSync. glslang wraps
// the entry point in a call, which is inlined only after merge-return.
RWStructuredBuffer<float> data : register(u0);
cbuffer Params : register(b1) { uint n; };
groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    if (gtid.x >= n) return;
    tile[gtid.x] = data[dtid.x];
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "SV_GroupThreadID" // expect-note@-2: "never reach the barrier; the condition depends on SV_GroupThreadID" // expect-note@-3: "SV_GroupThreadID differs between the invocations of a workgroup"
    data[dtid.x] = tile[63 - gtid.x];  // expect: uninitialized-shared-read "reads tile[63], which no invocation writes before it when n = 63" // expect-note@-2: "'tile' is written here, but not at tile[63] when n = 63"
}
