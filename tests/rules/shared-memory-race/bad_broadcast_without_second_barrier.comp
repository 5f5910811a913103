#version 450
// Invocation 0 sums the partials and stores the total in partial[0]; the others
// read partial[0] without waiting for that store (the second barrier is missing).
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < 64; ++i) total += partial[i];
        partial[0] = total;
    }
    x[gl_GlobalInvocationID.x] /= partial[0];  // expect: shared-memory-race confirmed "invocation 1 reads partial[0] while invocation 0 writes it" // expect-note@-2: "invocation 0 writes partial[0] here"
}
