#version 450
// Each invocation gets its own ticket from the atomic, so the condition differs.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Counter { uint counter; uint data[]; };
shared uint staging[64];

void main() {
    uint ticket = atomicAdd(counter, 1u);
    staging[gl_LocalInvocationID.x] = ticket;
    if (ticket % 2u == 0u) {
        barrier();  // expect: barrier-in-divergent-control-flow confirmed "value that differs" // expect-note@-1: "never reach the barrier; the condition depends on a value that differs between invocations" // expect-note@-3: "the result of an atomic differs between invocations"
    }
    data[ticket] = staging[0];  // expect: shared-memory-race "reads staging[0] while invocation 0 writes it" // expect-note@-4: "invocation 0 writes staging[0] here"
}
