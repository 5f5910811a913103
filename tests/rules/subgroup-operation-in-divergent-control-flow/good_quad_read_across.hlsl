// HLSL: quad reads under conditions that keep whole quads. In an 8x8 group
// the four threads of a quad share a row, so a bound on the row, on the
// flattened index at a multiple of 4, or on the quad's index keeps quads
// whole; so does a bounds check that returns whole quads.
RWStructuredBuffer<float> Data : register(u0);
cbuffer Params : register(b1) { uint quads_per_row; };

[numthreads(8, 8, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    float v = Data[dtid.y * 4096 + dtid.x];
    if (gtid.y < 4) v += QuadReadAcrossX(v);
    if (gi < 32) v += QuadReadAcrossY(v);
    if (gtid.x >= 4) v += QuadReadLaneAt(v, 1);
    if (dtid.x / 4 >= quads_per_row) return;
    Data[dtid.y * 4096 + dtid.x] = v + QuadReadAcrossDiagonal(v);
}
