#version 450
// The loop bound is uniform, but a divergent `break` lets some invocations
// leave early: every barrier in the loop is then divergent.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint data[]; };
shared uint staging[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint step = 0; step < 8; ++step) {
        staging[tid] = data[tid * 8 + step];
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive // expect-note@+1: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-3: "gl_LocalInvocationID differs between the invocations of a workgroup"
        if (staging[tid] == 0) break;
        data[tid * 8 + step] = staging[(tid + 1) % 64];
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive // expect-note@-2: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-6: "gl_LocalInvocationID differs between the invocations of a workgroup"
    }
}
