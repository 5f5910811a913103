// HLSL: 128 threads copy a 200-entry table in steps of the group: the second
// step starts at 128, and threads 72 to 127 index 200 to 255.
StructuredBuffer<float> table : register(t0);
RWStructuredBuffer<float> data : register(u1);
groupshared float cache[200];

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    for (uint i = 0; i < 200; i += 128) {
        cache[i + gtid.x] = table[i + gtid.x];  // expect: grid-stride-tail confirmed "index i + SV_GroupThreadID.x goes past the end of an array of 200: on the last iteration ('i' = 128) the invocations from 72 to 127 along x index 200 to 255"
        // expect-note@-2: "'i' steps by 128, the workgroup size along x, and only it is checked against 200"
    }
    GroupMemoryBarrierWithGroupSync();
    data[id.x] *= cache[gtid.x];
}
