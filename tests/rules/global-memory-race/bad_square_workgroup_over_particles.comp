#version 450
// A 16x16 workgroup over a one-dimensional array of particles: the index
// ignores y, so 16 invocations update each particle, each reading it first.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
struct Particle { vec4 position; vec4 velocity; };
layout(std430, binding = 0) buffer Particles { Particle particle[]; };
layout(binding = 1) uniform Step { uint count; float dt; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) return;
    vec4 v = particle[i].velocity;
    // expect@+1: global-memory-race confirmed "data race on 'particle': the 16 invocations along y of a 16x16x1 workgroup all write one element" // expect-note@-1: "reads the element here before writing it" // expect-note@+2: "the same invocations write 'particle' here too"
    particle[i].velocity = v * 0.99;
    particle[i].position += v * dt;
}
