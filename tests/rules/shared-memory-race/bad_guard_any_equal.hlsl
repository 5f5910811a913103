// HLSL: any() is not all(): the first row and column all pass.
RWStructuredBuffer<uint> data : register(u0);
groupshared uint total;

[numthreads(8, 8, 1)]
void main(uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex) {
    if (any(tid.xy == 0)) total = 0;  // expect: shared-memory-race confirmed "invocations (0, 0) and (1, 0) both write total"
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(total, data[gi]);
    GroupMemoryBarrierWithGroupSync();
    data[gi] = total;
}
