// HLSL: a row blur whose helpers read three neighbours and write one element
// of the same groupshared row, with a barrier between the reads and the
// write (outside the if-free helper, so every thread reaches it).
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
    GroupMemoryBarrierWithGroupSync();
    write1(i, v);
}

[numthreads(128, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 id : SV_DispatchThreadID) {
    row[gtid.x] = image[id.x];
    GroupMemoryBarrierWithGroupSync();
    blur(gtid.x);
    image[id.x] = row[gtid.x];
}
