#version 450
// No local_size, analyzed at the 64 invocations --workgroup-size gives: the
// neighbour is read after the barrier that publishes it, and a second tile
// is only ever touched by its own invocation.
// fixture-options: --workgroup-size=64
// expect-file-note: "klint analyzed it at 64x1x1, the size --workgroup-size gives"
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];
shared float own[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    own[tid] = 2.0 * data[gl_GlobalInvocationID.x];
    barrier();
    float right = tile[(tid + 1) % 64];
    own[tid] += right;
    data[gl_GlobalInvocationID.x] = own[tid];
}
