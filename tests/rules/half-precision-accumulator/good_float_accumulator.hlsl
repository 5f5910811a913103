// fixture-options: --target=nvidia-ampere,apple-m1
// min16float inputs, a float accumulator: the products may be 16-bit, the
// sum is not.
StructuredBuffer<float> X : register(t0);
StructuredBuffer<float> W : register(t1);
RWStructuredBuffer<float> Y : register(u2);
cbuffer Params : register(b3) { uint n; uint rows; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float acc = 0;
    min16float peak = 0;
    for (uint i = 0; i < n; ++i) {
        min16float x = (min16float)X[i * rows + id.x];
        acc += x * (min16float)W[i];
        peak = max(peak, abs(x));
    }
    Y[id.x] = acc / max(peak, 1.0);
}
