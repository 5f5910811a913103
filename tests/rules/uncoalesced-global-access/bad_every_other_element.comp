#version 450
// Interleaved complex numbers read for their real parts only, and an array of
// structs read for one member: the bytes in between are fetched and unused.
layout(local_size_x = 64) in;
struct Particle { vec4 position; vec4 velocity; vec4 colour; };
layout(binding = 0) readonly buffer Signal { float signal[]; };
layout(binding = 1) writeonly buffer Real { float real[]; };
layout(binding = 2) buffer Particles { Particle particles[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    real[i] = signal[2 * i];  // expect: uncoalesced-global-access confirmed "read 'signal' 8 bytes apart, 2 times the 4 bytes each one reads; a subgroup touches 2 cache lines where 1 would do"
    particles[i].position.y -= 0.01;  // expect: uncoalesced-global-access confirmed "read 'particles' 48 bytes apart"
}
