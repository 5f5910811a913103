// HLSL: the same hand-kept counter as in a 3x3 stencil, but the outer loop's
// trip count is a constant buffer value: no compiler can unroll it, so the
// counter is a run-time index.
Texture2D<float> Source : register(t0);
RWStructuredBuffer<float> Result : register(u1);
cbuffer Params : register(b2) { int Radius; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float taps[16];  // expect: private-array-spill inconclusive "'taps' of 16 floats (64 bytes) is indexed dynamically"
    int n = 0;
    for (int y = 0; y < Radius; y++) {
        for (int x = 0; x < 4; x++) {
            taps[n & 15] = Source[int2(id.x + x, y)];
            // expect-note@-1: "indexed here by the counter of a loop whose trip count is only known at run time"
            n++;
        }
    }
    float s = 0;
    for (int i = 0; i < 16; i++) s += taps[i];
    Result[id.x] = s;
}
