#version 450
// A persistent loop over blocks that skips the blocks past the end with a
// test every invocation agrees on; each block it keeps is summed in groups of
// 8 by a tree whose stride halves, with a barrier after every step. Skipped
// blocks pass no barrier, but all invocations skip the same ones, so two
// steps of one tree never meet.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float values[]; };
layout(push_constant) uniform P { uint blocks; uint valid; };
shared float partial[72];

void main() {
    uint t = gl_LocalInvocationID.x;
    for (uint b = gl_WorkGroupID.x; b < blocks; b += gl_NumWorkGroups.x) {
        if (b < valid) {
            partial[t] = values[b * 64u + t];
            barrier();
            for (uint stride = 4u; stride > 0u; stride >>= 1) {  // expect: manual-subgroup-reduction
                if ((t % 8u) < stride) partial[t] = partial[t] + partial[t + stride];
                barrier();
            }
            if ((t % 8u) == 0u) values[b * 64u + t] = partial[t];
        }
    }
}
