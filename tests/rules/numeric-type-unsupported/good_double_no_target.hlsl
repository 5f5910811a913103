// The same HLSL double arithmetic with no target declared: the module declares
// Float64, a requirement its host checks, so nothing is reported.
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    double wide = (double)data[dtid.x] * 3.0;
    data[dtid.x] = (float)(wide / 7.0);
}
