// HLSL: a row blur whose helpers read three neighbours and write one element
// of the same groupshared row. The helper that blurs calls both, with no
// barrier between the reads and the write: the finding is at the write's call
// in the blurring helper, with notes in the helpers.
RWStructuredBuffer<float> image : register(u0);
groupshared float row[128];

float read3(uint i) {
    return row[i] + row[min(i + 1, 127)] + row[i > 0 ? i - 1 : 0];
}

void write1(uint i, float v) {
    row[i] = v;
}

void blur(uint i) {
    float v = read3(i) / 3.0;
    write1(i, v);  // expect: shared-memory-race confirmed "data race on 'row'"
    // expect-note@-6: "in 'write1', invocation"
    // expect-note@-11: "in 'read3', called at line 17, invocation"
}

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    row[gtid.x] = image[id.x];
    GroupMemoryBarrierWithGroupSync();
    blur(gtid.x);
    GroupMemoryBarrierWithGroupSync();
    image[id.x] = row[gtid.x];
}
