#version 450
// One barrier in a helper called from two divergent places is one finding,
// not one per inlined copy.
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { float x[]; };
shared float staged[64];

void sync_and_read(uint i) {
    barrier();  // expect: barrier-in-divergent-control-flow confirmed // expect-note@+7: "the condition depends on gl_LocalInvocationID" // expect-note@+5: "gl_LocalInvocationID differs between the invocations of a workgroup"
    x[i] = staged[63 - i];
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    staged[tid] = x[tid];
    if (tid < 32) sync_and_read(tid);
    else sync_and_read(tid - 32);
}
