#version 450
// A 64-byte particle of which the update reads and writes position and
// velocity only, its own and its neighbours': half of every line a subgroup
// fetches is colour and normal no one uses. One finding for the record,
// whose notes name the other parts read.
layout(local_size_x = 64) in;
struct Particle { vec4 position; vec4 velocity; vec4 colour; vec4 normal; };
layout(std430, binding = 0) readonly buffer In { Particle particles_in[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 positions_out[]; };
layout(push_constant) uniform Params { uint count; float dt; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u || i + 1u >= count) return;
    vec4 p = particles_in[i].position;  // expect: uncoalesced-global-access confirmed "read 'particles_in' 64 bytes apart and leave 32 bytes of each one's 64-byte record unused; a subgroup touches 16 cache lines where 8 would do"
    vec4 v = particles_in[i].velocity;
    // expect-note@-1: "the same invocation reads bytes 16 to 31 of its record here"
    vec4 left = particles_in[i - 1u].position;
    vec4 right = particles_in[i + 1u].position;
    positions_out[i] = p + dt * v + 0.5 * (left + right - 2.0 * p);
}
