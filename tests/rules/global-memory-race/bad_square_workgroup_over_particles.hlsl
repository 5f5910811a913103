// HLSL: numthreads(16, 16, 1) over a one-dimensional structured buffer,
// updated in place.
struct Particle { float4 position; float4 velocity; };
RWStructuredBuffer<Particle> particles : register(u0);
cbuffer Step : register(b1) { uint count; float dt; };

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    if (i >= count) return;
    // expect@+1: global-memory-race confirmed "data race on 'particles': the 16 invocations along y of a 16x16x1 workgroup all write one element" // expect-note@+1: "reads the element here before writing it"
    particles[i].position += particles[i].velocity * dt;
}
