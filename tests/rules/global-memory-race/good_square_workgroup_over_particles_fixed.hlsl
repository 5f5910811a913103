// HLSL, fixed: numthreads(256, 1, 1), one invocation per particle.
struct Particle { float4 position; float4 velocity; };
RWStructuredBuffer<Particle> particles : register(u0);
cbuffer Step : register(b1) { uint count; float dt; };

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    if (i >= count) return;
    particles[i].position += particles[i].velocity * dt;
}
