// HLSL: an 8 x 8 tile addressed by shifts and masks of the thread index;
// one thread clears the total, one per row its row's slot.
RWStructuredBuffer<uint> data : register(u0);
groupshared uint total;
groupshared uint rows[8];
groupshared uint reversed_first;

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    uint col = gi & 7;
    uint row = (gi >> 3) & 7;
    if ((col | row) == 0) total = 0;
    if (col == 0) rows[row] = 0;
    if ((reversebits(gi) >> 26) == 63 && countbits(gi) == 6) reversed_first = data[gi];
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(total, data[gi]);
    InterlockedAdd(rows[row], data[gi]);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) data[0] = total + reversed_first;
    if (col == 0) data[1 + row] = rows[row];
}
