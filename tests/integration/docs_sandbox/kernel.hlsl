// Two entry points: --entry picks one.
RWStructuredBuffer<float> values : register(u0);

[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    values[id.x] *= 2.0;
}

[numthreads(64, 1, 1)]
void CSClear(uint3 id : SV_DispatchThreadID) {
    values[id.x] = 0.0;
}
