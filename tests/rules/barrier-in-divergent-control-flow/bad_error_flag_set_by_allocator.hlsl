// HLSL: the flag lives beside the allocator's cursor in a read-write buffer
// that a helper sets with an interlocked operation when the pool runs out.
struct Header {
    uint next;
    uint failed;
};
RWStructuredBuffer<Header> header : register(u0);
RWStructuredBuffer<uint> words : register(u1);
groupshared uint offsets[64];

uint allocate(uint size) {
    uint offset;
    InterlockedAdd(header[0].next, size, offset);
    if (offset + size > 65536) {
        InterlockedMax(header[0].failed, 1);
        return 0;
    }
    return offset;
}

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    if (header[0].failed != 0) {
        return;
    }
    offsets[gi] = allocate(gi + 1);
    GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow inconclusive "buffer memory that the shader writes"
    // expect-note@-5: "invocations that branch away here never reach the barrier"
    // expect-note@-6: "loaded from buffer memory that this shader writes (line 15)"
    words[offsets[63 - gi]] = gi;
}
