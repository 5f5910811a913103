// HLSL under an extension klint does not know: -x hlsl says what it is.
RWStructuredBuffer<float> values : register(u0);

[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    values[id.x] *= 2.0;
}
