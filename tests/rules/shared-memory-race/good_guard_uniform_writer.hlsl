// HLSL: the thread a constant buffer names writes; so does the thread that
// draws the last ticket from a groupshared counter.
RWStructuredBuffer<uint> data : register(u0);
cbuffer Params : register(b1) { uint first; uint total; };
groupshared uint picked;
groupshared uint tickets;
groupshared uint last;

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    if (gi == 0) tickets = 0;
    if (gi == first) picked = data[0];
    GroupMemoryBarrierWithGroupSync();
    uint ticket;
    InterlockedAdd(tickets, 1, ticket);
    if (ticket + 1 == total) last = data[1];
    GroupMemoryBarrierWithGroupSync();
    data[gi] = picked + last;
}
