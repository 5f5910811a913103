// HLSL: one record per group along x in a ByteAddressBuffer; the byte
// offset is divided into words, which klint follows.
ByteAddressBuffer input : register(t0);
RWByteAddressBuffer output : register(u1);
[[vk::push_constant]] cbuffer Params { uint record_bytes; };

[numthreads(32, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint3 group : SV_GroupID, uint3 gtid : SV_GroupThreadID) {  // expect: workgroup-count-over-limit confirmed "along x covers one index of"
    uint base = group.x * record_bytes;
    uint v = input.Load(base + gtid.x * 4);
    output.Store(base + gtid.x * 4, v + 1);
}
