// HLSL: a 5x5 blur whose weights and samples go into arrays through
// hand-kept counters, in loops of constant trip count marked [unroll] (25
// elements are more than drivers unroll on their own).
Texture2D<float4> Source : register(t0);
RWTexture2D<float4> Result : register(u1);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float samples[25];
    float weights[25];
    int n = 0;
    [unroll] for (int y = -2; y <= 2; y++) {
        [unroll] for (int x = -2; x <= 2; x++) {
            samples[n] = Source[int2(id.xy) + int2(x, y)].g;
            weights[n] = 1.0 / (1.0 + x * x + y * y);
            n += 1;
        }
    }
    float sum = 0;
    float total = 0;
    [unroll] for (int i = 0; i < 25; i++) {
        sum += samples[i] * weights[i];
        total += weights[i];
    }
    Result[id.xy] = float4(sum / total, 0, 0, 1);
}
