#version 450
// The upper half of the workgroup skips the barrier of every step and reads
// the slot the lower half writes a step later: with nothing to hold it back it
// runs steps ahead, so its read of partial[k + 1] meets the write of step
// k + 1.
layout(local_size_x = 64) in;
layout(binding = 0) writeonly buffer Out { float y[]; };
shared float partial[9];

void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 9u) partial[l] = 0.0;
    barrier();
    float acc = 0.0;
    for (uint k = 0u; k < 8u; ++k) {
        if (l >= 32u) {
            acc += partial[k + 1u];
            continue;
        }
        if (l == 0u) partial[k] = float(k);  // expect: shared-memory-race not-reproduced "invocation 0 writes partial[1] while invocation 32 reads it" // expect-note@-3: "invocation 32 reads partial[1] here"
        barrier();  // expect: barrier-in-divergent-control-flow
    }
    y[gl_GlobalInvocationID.x] = acc;
}
