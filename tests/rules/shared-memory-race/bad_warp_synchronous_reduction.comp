#version 450
// The last steps of a tree reduction run without barriers, trusting that the
// first 32 invocations run in lockstep. Vulkan's memory model does not order
// them, and subgroups narrower than 32 split them.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
shared float s[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    s[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 128; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        barrier();
    }
    if (tid < 32) {
        s[tid] += s[tid + 32];  // expect: manual-subgroup-reduction "tree reduction over 's' runs within 32 invocations" // expect-note@+6: "the last of 6 steps, each combining two elements with '+'"
        // expect@+1: shared-memory-race confirmed "invocation 16 writes s[16] while invocation 0 reads it" // expect-note@+1: "invocation 0 reads s[16] here"
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];   // expect: shared-memory-race confirmed "while invocation 0 reads it" // expect-note: "invocation 0 reads s[8] here"
        s[tid] += s[tid + 4];   // expect: shared-memory-race confirmed "while invocation 0 reads it" // expect-note: "invocation 0 reads s[4] here"
        s[tid] += s[tid + 2];   // expect: shared-memory-race confirmed "while invocation 0 reads it" // expect-note: "invocation 0 reads s[2] here"
        s[tid] += s[tid + 1];   // expect: shared-memory-race confirmed "while invocation 0 reads it" // expect-note: "invocation 0 reads s[1] here"
    }
    if (tid == 0) x[gl_WorkGroupID.x] = s[0];
}
