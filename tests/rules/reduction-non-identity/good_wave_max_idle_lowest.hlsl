// HLSL: threads past the end take the lowest float, the identity of a
// maximum, and their product term is 1.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<float> block_max : register(u1);
cbuffer Params : register(b2) { uint count; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = -3.4028235e38;
    float p = 1.0;
    if (id.x < count) {
        v = values[id.x];
        p = values[id.x];
    }
    float m = WaveActiveMax(v);
    float q = WaveActiveProduct(p);
    if (WaveIsFirstLane()) block_max[id.x / WaveGetLaneCount()] = m + q;
}
