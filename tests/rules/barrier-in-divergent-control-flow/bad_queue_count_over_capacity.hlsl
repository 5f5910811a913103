// HLSL: the queue's count, which every group adds to, decides when a group
// stops; invocations of one group may load it on either side of another
// group's InterlockedAdd.
RWByteAddressBuffer queue : register(u0);
cbuffer Params : register(b1) { uint capacity; uint rounds; };
groupshared uint batch[64];

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    for (uint round = 0; round < rounds; ++round) {
        if (queue.Load(0) >= capacity) {
            break;
        }
        batch[gi] = round * 64 + gi;
        GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow inconclusive "buffer memory that the shader writes"
        // expect-note@-5: "never reach the barrier"
        // expect-note@-6: "loaded from buffer memory that this shader writes (line 19)"
        uint slot;
        queue.InterlockedAdd(0, 1u, slot);
        if (slot < capacity) queue.Store(4 + slot * 4, batch[63 - gi]);
        GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow inconclusive "buffer memory that the shader writes"
    }
}
