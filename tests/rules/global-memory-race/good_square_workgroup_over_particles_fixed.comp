#version 450
// The fix: one invocation per particle.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
struct Particle { vec4 position; vec4 velocity; };
layout(std430, binding = 0) buffer Particles { Particle particle[]; };
layout(binding = 1) uniform Step { uint count; float dt; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) return;
    vec4 v = particle[i].velocity;
    particle[i].velocity = v * 0.99;
    particle[i].position += v * dt;
}
