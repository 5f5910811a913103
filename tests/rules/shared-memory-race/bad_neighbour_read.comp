#version 450
// A stencil reads its neighbour's slot before the barrier that publishes it.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    // expect@+1: shared-memory-race confirmed "data race on 'tile': invocation 0 reads tile[1] while invocation 1 writes it" // expect-note@-1: "invocation 1 writes tile[1] here"
    float right = tid + 1 < 64 ? tile[tid + 1] : 0.0;
    barrier();
    x[gl_GlobalInvocationID.x] = tile[tid] + right;
}
