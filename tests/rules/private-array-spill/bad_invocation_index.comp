#version 450
// Each invocation keeps a small ring of partial results and picks its slot
// from its own id: an index the compiler cannot resolve.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 data[]; };

void main() {
    vec4 ring[8];  // expect: private-array-spill inconclusive "'ring' of 8 vec4s (128 bytes) is indexed dynamically"
    for (int s = 0; s < 8; ++s) ring[s] = data[gl_GlobalInvocationID.x * 8 + uint(s)];
    uint slot = gl_LocalInvocationID.x & 7u;
    ring[slot] *= 2.0;
    vec4 total = vec4(0.0);
    for (int s = 0; s < 8; ++s) total += ring[s];
    data[gl_GlobalInvocationID.x] = total;
}
