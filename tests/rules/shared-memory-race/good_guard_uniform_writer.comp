#version 450
// One writer chosen by a value klint cannot see: the invocation a push
// constant names, the one a uniform value from a buffer names (through a
// helper), and the last to arrive at an atomic counter.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
layout(push_constant) uniform Params { uint first; uint total; } pc;
shared uint picked;
shared uint chosen;
shared uint arrivals;
shared uint last;

uint tid() { return gl_LocalInvocationIndex; }

void main() {
    if (tid() == 0u) arrivals = 0u;
    if (gl_LocalInvocationIndex == pc.first) picked = x[0];
    uint idx = x[gl_WorkGroupID.x];  // expect: workgroup-count-over-limit
    if (tid() == idx) chosen = x[1];
    barrier();
    if (atomicAdd(arrivals, 1u) + 1u == pc.total) last = x[2];
    barrier();
    x[tid()] = picked + chosen + last;
}
