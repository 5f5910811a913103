#version 450
// One barrier per iteration: the next iteration's store to tile[tid] can land
// while a slower neighbour still reads the previous tile.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint step = 0; step < 8; ++step) {
        tile[tid] = x[step * 64 + tid];  // expect: shared-memory-race confirmed "invocation 0 writes tile[0] while invocation 1 reads it" // expect-note@+2: "invocation 1 reads tile[0] here"
        barrier();
        acc += tile[(tid + 63) % 64];
    }
    x[gl_GlobalInvocationID.x] = acc;
}
