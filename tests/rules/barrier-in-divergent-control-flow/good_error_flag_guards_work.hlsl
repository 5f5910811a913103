// HLSL: the flag only guards each invocation's own work; every invocation
// reaches the barrier.
struct Header {
    uint next;
    uint failed;
};
RWStructuredBuffer<Header> header : register(u0);
RWStructuredBuffer<uint> words : register(u1);
groupshared uint offsets[64];

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    bool ok = header[0].failed == 0;
    uint offset = 0;
    if (ok) {
        InterlockedAdd(header[0].next, gi + 1, offset);
        if (offset + gi + 1 > 65536) {
            InterlockedMax(header[0].failed, 1);
        }
    }
    offsets[gi] = offset;
    GroupMemoryBarrierWithGroupSync();
    if (ok) {
        words[offsets[63 - gi]] = gi;
    }
}
