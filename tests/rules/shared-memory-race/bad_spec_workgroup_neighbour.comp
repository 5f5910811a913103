#version 450
// A neighbour read without a barrier, in a workgroup whose size a
// specialization constant sets: judged at the default, 64. `--confirm`
// shrinks the witness to a workgroup of 2, the fewest invocations that race.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 64;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[BLOCK];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    // expect@+1: shared-memory-race confirmed "data race on 'tile': invocation 0 reads tile[1] while invocation 1 writes it, with no barrier between" // expect-note@-1: "invocation 1 writes tile[1] here"
    data[gl_GlobalInvocationID.x] = tile[(tid + 1) % BLOCK];
}
