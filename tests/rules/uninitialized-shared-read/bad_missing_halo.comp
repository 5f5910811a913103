#version 450
// A 3-point stencil loads one element per invocation into a tile with a halo
// on each side, but nobody loads the halo.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[66];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid + 1] = x[gl_GlobalInvocationID.x];
    barrier();
    // expect@+1: uninitialized-shared-read confirmed "invocation 0 reads tile[0], which no invocation writes before it" // expect-note@-2: "'tile' is written here, but not at tile[0]"
    x[gl_GlobalInvocationID.x] = tile[tid] + tile[tid + 1] + tile[tid + 2];
}
