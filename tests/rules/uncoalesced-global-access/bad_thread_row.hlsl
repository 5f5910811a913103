// HLSL: each thread sums a row of its own, of a length the constant buffer
// gives, and writes 64 floats of a row of its own (a 256-byte block).
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint n; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float sum = 0.0;
    for (uint k = 0; k < n; ++k) {
        sum += input[id.x * n + k];  // expect: uncoalesced-global-access confirmed "along x read 'input' n elements (4 * n bytes) apart, a row each"
    }
    for (uint j = 0; j < 64; ++j) {
        output[id.x * 64 + j] = sum * float(j);  // expect: uncoalesced-global-access confirmed "along x write 'output' 256 bytes apart, 64 times the 4 bytes each one writes"
    }
}
