#version 450
// The workgroup's width is a specialization constant whose default, 1, is
// not what the host runs: --workgroup-size sets the constant, and at 32
// invocations the neighbour read races.
// fixture-options: --workgroup-size=32
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WIDTH = 1;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    // expect@+1: shared-memory-race confirmed "invocation 0 reads tile[1] while invocation 1 writes it, with no barrier between" // expect-note@-1: "invocation 1 writes tile[1] here"
    data[gl_GlobalInvocationID.x] = tile[(tid + 1) % WIDTH];
}
