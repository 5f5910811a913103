// HLSL: numthreads chosen by the preprocessor; the finding is at the one
// compiled.
// fixture-options: --target=apple-m1,nvidia-ampere -DTILE=4
RWStructuredBuffer<float> Data : register(u0);

#if TILE == 8
[numthreads(8, 8, 1)]
#else
[numthreads(4, 4, 1)]  // expect: workgroup-size-not-subgroup-multiple "workgroup of 16 invocations (4x4x1) is smaller than a subgroup"
#endif
void main(uint3 id : SV_DispatchThreadID) { Data[id.y * 1024 + id.x] *= 2.0; }
