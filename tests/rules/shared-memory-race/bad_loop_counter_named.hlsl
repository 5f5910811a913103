// The read of one iteration meets the write of another: the note names the
// loop counter as the source does (k), not by its SSA id.
StructuredBuffer<float> x : register(t0);
RWStructuredBuffer<float> y : register(u1);
groupshared float tile[128];

[numthreads(64, 1, 1)]
void main(uint3 lid : SV_GroupThreadID, uint3 gid : SV_DispatchThreadID) {
    uint l = lid.x;
    float acc = 0.0;
    for (uint k = 0; k < 2; ++k) {
        tile[l + 64 * k] = x[k * 64 + l];
        acc += tile[127 - l - 64 * k];  // expect: shared-memory-race confirmed "invocation 0 reads tile[63] while invocation 63 writes it" // expect-note@-1: "invocation 63 writes tile[63] here with k = 0 there"
    }
    y[gid.x] = acc;
}
