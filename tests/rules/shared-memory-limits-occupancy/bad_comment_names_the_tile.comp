#version 450
// The finding sits on the declaration of 'row', not on this comment, which
// says that row lives in shared memory too.
// fixture-options: --target=apple-m1
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float row[8192];  // expect: shared-memory-limits-occupancy inconclusive "32768 bytes of workgroup memory let only 1 workgroup on apple-m1 stay resident"
// expect-note@-1: "apple-m1 needs 2 workgroups resident to hide memory latency"
// expect-note@-2: "'row' takes 32768 bytes"

void main() {
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) row[i] = data[i];
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) data[i] = row[8191 - i];
}
