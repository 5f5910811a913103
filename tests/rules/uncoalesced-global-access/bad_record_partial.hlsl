// HLSL: a structured buffer of 32-byte records of which each invocation reads
// one float: 28 of every 32 bytes fetched go unused.
struct Cell { float density; float pressure; float2 velocity; float4 colour; };
StructuredBuffer<Cell> Cells : register(t0);
RWStructuredBuffer<float> Density : register(u1);

[numthreads(128, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Density[id.x] = Cells[id.x].density * 0.5;  // expect: uncoalesced-global-access confirmed "read 'Cells' 32 bytes apart, 8 times the 4 bytes each one reads; a subgroup touches 8 cache lines where 1 would do"
}
