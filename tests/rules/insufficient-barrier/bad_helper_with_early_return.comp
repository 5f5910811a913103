#version 450
// The read happens in a helper that returns early, which normalization inlines
// only after merge-return: the read is reported inside the helper.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

float left_of(uint i) {
    if (i == 0) return 0.0;
    return tile[i - 1];
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    memoryBarrierShared();  // expect: insufficient-barrier confirmed "memoryBarrierShared() orders this invocation's accesses to 'tile'" // expect-note@-1: "'tile' is written here" // expect-note@-6: "'tile' is read here, possibly where another invocation has not written yet"
    x[gl_GlobalInvocationID.x] = left_of(tid);
}
