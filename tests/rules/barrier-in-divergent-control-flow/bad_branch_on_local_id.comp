#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];

void main() {
    uint i = gl_LocalInvocationID.x;
    tile[i] = data[gl_GlobalInvocationID.x];
    if (i < 16) {
        barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_LocalInvocationID" // expect-note@-1: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-3: "gl_LocalInvocationID differs between the invocations of a workgroup"
    }
    // expect@+1: barrier-in-divergent-control-flow confirmed "gl_LocalInvocationID" // expect-note@+1: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-5: "gl_LocalInvocationID differs between the invocations of a workgroup"
    if (i % 2 == 0) barrier();
    if (gl_WorkGroupID.x == 0) barrier();  // uniform across the workgroup: silent
    data[gl_GlobalInvocationID.x] = tile[63 - i];  // expect: shared-memory-race "invocation 0 reads tile[63] while invocation 63 writes it" // expect-note@-7: "invocation 63 writes tile[63] here"
}
