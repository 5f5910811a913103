#version 450
// A tree reduction with the barrier moved inside the `if`: only the lower half
// of the workgroup reaches it at each step.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float values[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = values[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];  // expect: shared-memory-race "invocation 32 writes partial[32] while invocation 0 reads it" // expect-note: "invocation 0 reads partial[32] here"
            barrier();  // expect: barrier-in-divergent-control-flow confirmed // expect-note@-2: "this condition depends on gl_LocalInvocationID" // expect-note@-6: "gl_LocalInvocationID differs between the invocations of a workgroup"
        }
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
