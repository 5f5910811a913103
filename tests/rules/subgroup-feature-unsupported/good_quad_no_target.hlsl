// Quad operations, which Qualcomm's driver lacks, with no target declared:
// a requirement the host checks, not a finding.
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    data[dtid.x] = QuadReadAcrossX(data[dtid.x]);
}
