// HLSL double arithmetic on declared targets: Intel Xe has no shaderFloat64.
// fixture-options: --target=intel-xe,nvidia-ampere
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    double wide = (double)data[dtid.x] * 3.0;  // expect: numeric-type-unsupported "64-bit float arithmetic (shaderFloat64), which intel-xe does not support"
    data[dtid.x] = (float)(wide / 7.0);
}
