// The HLSL histogram pass with its edge handled: every thread reaches both
// barriers, and only those inside the image count a pixel.
cbuffer Frame : register(b0) { float Exposure; uint Width; uint Height; };
StructuredBuffer<float> Luminance : register(t1);
RWStructuredBuffer<uint> Bins : register(u2);
groupshared uint LocalBins[16];

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID, uint slot : SV_GroupIndex) {
    bool inside = all(id.xy < uint2(Width, Height));
    if (slot < 16) LocalBins[slot] = 0;
    GroupMemoryBarrierWithGroupSync();
    uint unused;
    if (inside) {
        float l = Luminance[id.y * Width + id.x] * Exposure;
        InterlockedAdd(LocalBins[uint(saturate(l) * 15.0)], 1, unused);
    }
    GroupMemoryBarrierWithGroupSync();
    if (slot < 16) InterlockedAdd(Bins[slot], LocalBins[slot], unused);
}
