// fixture-options: --target=nvidia-ampere,apple-m1
// klint compiles HLSL without -enable-16bit-types, so half is a 32-bit float;
// min16float is relaxed precision, which mobile GPUs run in 16 bits.
StructuredBuffer<float> X : register(t0);
StructuredBuffer<float> W : register(t1);
RWStructuredBuffer<float> Y : register(u2);
cbuffer Params : register(b3) { uint n; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    min16float acc = 0;  // expect: half-precision-accumulator inconclusive "relaxed-precision float 'acc'"
    for (uint i = 0; i < n; ++i) {
        acc += (min16float)X[id.x * n + i] * (min16float)W[i];  // expect: uncoalesced-global-access "read 'X' n elements"
    }
    Y[id.x] = acc;
}
