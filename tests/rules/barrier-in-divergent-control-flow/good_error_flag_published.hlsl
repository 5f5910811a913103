// HLSL: the first invocation reads the flag into groupshared memory; after
// the barrier the whole group tests the same value.
struct Header {
    uint next;
    uint failed;
};
RWStructuredBuffer<Header> header : register(u0);
RWStructuredBuffer<uint> words : register(u1);
groupshared uint offsets[64];
groupshared uint give_up;

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    if (gi == 0) {
        give_up = header[0].failed;
    }
    GroupMemoryBarrierWithGroupSync();
    if (give_up != 0) {
        return;
    }
    uint offset;
    InterlockedAdd(header[0].next, gi + 1, offset);
    if (offset + gi + 1 > 65536) {
        InterlockedMax(header[0].failed, 1);
    }
    offsets[gi] = offset;
    GroupMemoryBarrierWithGroupSync();
    words[offsets[63 - gi]] = gi;
}
