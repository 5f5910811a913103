#version 450
// A tree reduction that uses groupMemoryBarrier() where barrier() belongs: each
// step reads partial sums other invocations wrote in the step before.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float values[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = values[gl_GlobalInvocationID.x];
    groupMemoryBarrier();  // expect: insufficient-barrier confirmed "groupMemoryBarrier() orders this invocation's accesses to 'partial'" // expect-note@-1: "'partial' is written here" // expect-note@+2: "'partial' is read here, possibly where another invocation has not written yet"
    for (uint stride = 64; stride > 0; stride >>= 1) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        groupMemoryBarrier();  // expect: insufficient-barrier confirmed "groupMemoryBarrier()" // expect-note@-1: "'partial' is written here" // expect-note@+2: "'partial' is read here, possibly where another invocation has not written yet"
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
