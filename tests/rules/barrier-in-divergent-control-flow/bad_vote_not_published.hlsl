// HLSL: WaveActiveAllTrue answers for one wave, and a group of 128 may hold
// several; nothing combines their answers before the barrier.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[128];

[numthreads(128, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID) {
    float x = data[dtid.x];
    if (WaveActiveAllTrue(x < 1.0)) return;
    tile[gi] = x;
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow inconclusive "SV_DispatchThreadID" // expect-note@-2: "never reach the barrier; the condition depends on SV_DispatchThreadID" // expect-note@-4: "SV_DispatchThreadID differs between the invocations of a workgroup"
    data[dtid.x] = tile[127 - gi];
}
