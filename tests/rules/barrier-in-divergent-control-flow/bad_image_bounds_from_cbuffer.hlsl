// The histogram pass in HLSL: the image size is in a constant buffer, and
// threads past the edge return before GroupMemoryBarrierWithGroupSync.
cbuffer Frame : register(b0) { float Exposure; uint Width; uint Height; };
StructuredBuffer<float> Luminance : register(t1);
RWStructuredBuffer<uint> Bins : register(u2);
groupshared uint LocalBins[16];

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID, uint slot : SV_GroupIndex) {
    if (any(id.xy >= uint2(Width, Height))) return;
    if (slot < 16) LocalBins[slot] = 0;
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "SV_DispatchThreadID" // expect-note@-2: "never reach the barrier; the condition depends on SV_DispatchThreadID" // expect-note@-3: "SV_DispatchThreadID differs between the invocations of a workgroup"
    float l = Luminance[id.y * Width + id.x] * Exposure;
    uint unused;
    InterlockedAdd(LocalBins[uint(saturate(l) * 15.0)], 1, unused);
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "SV_DispatchThreadID" // expect-note@-6: "never reach the barrier; the condition depends on SV_DispatchThreadID" // expect-note@-7: "SV_DispatchThreadID differs between the invocations of a workgroup"
    if (slot < 16) InterlockedAdd(Bins[slot], LocalBins[slot], unused);
}
