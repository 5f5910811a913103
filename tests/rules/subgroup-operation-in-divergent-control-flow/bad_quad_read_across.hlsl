// HLSL: quad reads where part of a quad has left. In an 8x8 group a quad is
// four threads of one row; `gtid.x < 6` cuts the second quad of every row,
// and the bounds check on a run-time n may end inside a quad.
RWStructuredBuffer<float> Data : register(u0);
cbuffer Params : register(b1) { uint n; };

[numthreads(8, 8, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float v = Data[dtid.y * 4096 + dtid.x];
    if (gtid.x < 6) v += QuadReadAcrossDiagonal(v);  // expect: subgroup-operation-in-divergent-control-flow confirmed "QuadReadAcrossDiagonal in control flow that depends on SV_GroupThreadID, so it may read a lane of its quad that is not active"
    if (dtid.x >= n) return;
    Data[dtid.y * 4096 + dtid.x] = v + QuadReadAcrossX(v);  // expect: subgroup-operation-in-divergent-control-flow confirmed "QuadReadAcrossX in control flow that depends on SV_DispatchThreadID"
}
