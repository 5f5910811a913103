// HLSL: the global index built from SV_GroupID and SV_GroupIndex, stepped by
// the group size.
RWStructuredBuffer<uint> counts : register(u0);
[[vk::push_constant]] cbuffer Params { uint n; };

[numthreads(128, 1, 1)]
void main(uint3 group : SV_GroupID, uint index : SV_GroupIndex) {
    // expect@+1: grid-stride-mismatch confirmed "workgroup size (128)"
    for (uint i = group.x * 128 + index; i < n; i += 128) {
        counts[i] += 1;
    }
}
