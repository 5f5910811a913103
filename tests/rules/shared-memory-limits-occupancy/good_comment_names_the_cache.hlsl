// HLSL: a quarter of the cache in groupshared memory, four groups per Apple
// core; the comment naming cache and groupshared is no declaration.
// fixture-options: --target=apple-m1
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[2048];

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    for (uint i = gtid.x; i < 2048; i += 256) cache[i] = data[i];
    GroupMemoryBarrierWithGroupSync();
    for (uint j = gtid.x; j < 2048; j += 256) data[j] = cache[2047 - j];
}
