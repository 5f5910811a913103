// HLSL: structured buffers of structs read whole, member by member, whose
// layout pads each element (a float3 after a float4: 28 bytes of 32).
struct Vertex { float4 position; float3 normal; };
StructuredBuffer<Vertex> Vertices : register(t0);
RWStructuredBuffer<float4> Lit : register(u1);
cbuffer Light : register(b2) { float3 Direction; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 p = Vertices[id.x].position;
    float3 n = Vertices[id.x].normal;
    Lit[id.x] = p * saturate(dot(n, Direction));
}
