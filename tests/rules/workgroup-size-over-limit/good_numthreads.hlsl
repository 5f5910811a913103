// 256 threads: within the limits of these declared desktop targets.
// fixture-options: --target=nvidia-ampere,amd-rdna2-wave32
RWStructuredBuffer<float> data : register(u0);

[numthreads(256, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) { data[dtid.x] = 0.0; }
