// 256 threads fit Mali.
// fixture-options: --target=arm-mali-valhall
RWStructuredBuffer<float> data : register(u0);

[numthreads(256, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) { data[dtid.x] = 0.0; }
