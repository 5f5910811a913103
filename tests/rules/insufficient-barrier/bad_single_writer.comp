#version 450
// One invocation writes, all read the same element: the address is the same
// for the write and the reads, but the reads are by other invocations.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float scale;

void main() {
    if (gl_LocalInvocationID.x == 0) scale = x[0];
    memoryBarrierShared();  // expect: insufficient-barrier confirmed "'scale'" // expect-note@-1: "'scale' is written here" // expect-note@+1: "'scale' is read here, possibly where another invocation has not written yet"
    x[gl_GlobalInvocationID.x + 1] *= scale;
}
