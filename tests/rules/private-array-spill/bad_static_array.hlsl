// A per-thread array in HLSL, indexed by a value read from a buffer.
StructuredBuffer<uint> Indices : register(t0);
RWStructuredBuffer<float> Output : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float weights[24];  // expect: private-array-spill inconclusive "'weights' of 24 floats (96 bytes) is indexed dynamically"
    for (uint i = 0; i < 24; ++i) weights[i] = 1.0 / (1.0 + i);
    Output[id.x] = weights[Indices[id.x] % 24];
}
