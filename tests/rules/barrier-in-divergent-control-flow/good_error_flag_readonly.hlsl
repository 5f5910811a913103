// HLSL: the flag is in a read-only StructuredBuffer; the shader writes only
// the pool.
StructuredBuffer<uint> status : register(t0);
RWStructuredBuffer<uint> pool : register(u1);
groupshared uint offsets[64];

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    if (status[0] != 0) {
        return;
    }
    uint offset;
    InterlockedAdd(pool[0], gi + 1, offset);
    offsets[gi] = offset;
    GroupMemoryBarrierWithGroupSync();
    pool[1 + offsets[63 - gi]] = gi;
}
