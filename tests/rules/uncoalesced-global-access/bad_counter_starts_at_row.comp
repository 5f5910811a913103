#version 450
// The counter itself starts at the invocation's row and counts up by one:
// the same row walk, written another way.
layout(local_size_x = 64) in;
layout(binding = 0) writeonly buffer Out { uint counts[]; };
layout(push_constant) uniform P { uint K; };

void main() {
    uint first = gl_GlobalInvocationID.x * K;
    for (uint i = first; i < first + K; ++i) {
        counts[i] = 0u;  // expect: uncoalesced-global-access confirmed "write 'counts' K elements (4 * K bytes) apart"
    }
}
