#version 450
// A 31 KiB tile used beside a 1 KiB array never used: the 31744 bytes the
// tile takes alone keep one workgroup per Apple core; the other is not counted.
// fixture-options: --target=apple-m1
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float unused[256];
shared float tile[7936];  // expect: shared-memory-limits-occupancy inconclusive "31744 bytes of workgroup memory let only 1 workgroup on apple-m1 stay resident"
// expect-note@-1: "apple-m1 needs 2 workgroups resident to hide memory latency"
// expect-note@-2: "'tile' takes 31744 bytes"

void main() {
    for (uint i = gl_LocalInvocationID.x; i < 7936; i += 256) tile[i] = data[i];
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < 7936; i += 256) data[i] = tile[7935 - i];
}
