#version 450
// memoryBarrierShared() alone between writing a tile and reading a neighbour's
// element: it orders this invocation's write, but does not wait for the neighbour.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    tile[tid] = x[gid];
    // expect@+1: insufficient-barrier confirmed "memoryBarrierShared() orders this invocation's accesses to 'tile' but does not wait for the other invocations" // expect-note@-1: "'tile' is written here" // expect-note@+2: "'tile' is read here, possibly where another invocation has not written yet"
    memoryBarrierShared();
    x[gid] = 0.5 * (tile[tid] + tile[(tid + 1) % 64]);
}
