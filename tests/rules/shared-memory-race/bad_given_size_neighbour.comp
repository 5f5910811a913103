#version 450
// No local_size: the host patches the size into the module when it creates
// the pipeline (as ncnn does), and --workgroup-size says which. At 64
// invocations the neighbour read races with the neighbour's write; linted
// without the option, the kernel is not judged as one workgroup at all.
// fixture-options: --workgroup-size=64
// expect-file-note: "klint analyzed it at 64x1x1, the size --workgroup-size gives"
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    // expect@+1: shared-memory-race confirmed "invocation 0 reads tile[1] while invocation 1 writes it, with no barrier between" // expect-note@-1: "invocation 1 writes tile[1] here"
    data[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
