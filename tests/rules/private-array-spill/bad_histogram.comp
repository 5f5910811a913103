#version 450
// A histogram per invocation: the bin comes from the data, so the array
// cannot be split into registers.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Data { uint values[]; };
layout(binding = 1) buffer Counts { uint counts[]; };

void main() {
    uint bins[16];  // expect: private-array-spill inconclusive "per-invocation array 'bins' of 16 uints (64 bytes) is indexed dynamically"
    for (int b = 0; b < 16; ++b) bins[b] = 0u;
    for (uint i = 0; i < 128; ++i) {
        uint v = values[gl_GlobalInvocationID.x * 128 + i];  // expect: uncoalesced-global-access "read 'values' 512 bytes apart"
        bins[v >> 28] += 1u;
    }
    for (int b = 0; b < 16; ++b) atomicAdd(counts[b], bins[b]);
}
