// HLSL: a group of two threads; the else arm of `thread 0` is thread 1.
RWStructuredBuffer<uint> data : register(u0);
struct Pair { uint u; uint v; };
groupshared uint a;
groupshared uint b;
groupshared Pair p;
groupshared uint2 w;

[numthreads(2, 1, 1)]
void main(uint3 tid : SV_GroupThreadID) {
    if (tid.x == 0) a = data[0]; else b = data[1];
    if (tid.x == 0) p.u = 1; else p.v = 2;
    if (tid.x == 0) w.x = 3; else w.y = 4;
    GroupMemoryBarrierWithGroupSync();
    data[tid.x] = a + b + p.u + p.v + w.x + w.y;
}
