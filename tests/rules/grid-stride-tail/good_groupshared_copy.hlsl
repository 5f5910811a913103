// HLSL: 128 threads copy a 200-entry table in steps of the group, each
// checking its element.
StructuredBuffer<float> table : register(t0);
RWStructuredBuffer<float> data : register(u1);
groupshared float cache[200];

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    for (uint i = 0; i < 200; i += 128) {
        if (i + gtid.x < 200) cache[i + gtid.x] = table[i + gtid.x];
    }
    GroupMemoryBarrierWithGroupSync();
    data[id.x] *= cache[gtid.x];
}
