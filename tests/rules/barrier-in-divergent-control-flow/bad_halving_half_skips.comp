#version 450
// Each half of the workgroup reduces its own block, and a half whose block is
// past the end skips the iteration, barriers and all: those barriers are
// reached by only some invocations. (The invocations that combine slots all
// belong to one group of 8, inside one half, and take the skip alike: the
// steps of their reduction are still ordered, so shared-memory-race has no
// race to report.)
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint pairs; uint valid; };
shared float partial[72];

void main() {
    uint t = gl_LocalInvocationID.x;
    for (uint b = 0u; b < pairs; ++b) {
        uint block = b * 2u + t / 32u;
        if (block >= valid) continue;
        partial[t] = x[block * 32u + t % 32u];
        barrier();  // expect: barrier-in-divergent-control-flow confirmed
        for (uint s = 4u; s > 0u; s >>= 1) {  // expect: manual-subgroup-reduction
            if ((t % 8u) < s) partial[t] = partial[t] + partial[t + s];
            barrier();  // expect: barrier-in-divergent-control-flow confirmed
        }
        if ((t % 8u) == 0u) y[block * 4u + (t % 32u) / 8u] = partial[t];
    }
}
