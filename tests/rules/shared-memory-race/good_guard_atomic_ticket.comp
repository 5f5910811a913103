#version 450
// The last invocation to draw a ticket publishes the result: each ticket is
// drawn once, so one invocation passes `ticket == last`, however often the
// kernel tests it.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint tickets;
shared uint result;

void main() {
    uint tid = gl_LocalInvocationIndex;
    if (tid == 0u) tickets = 0u;
    barrier();
    uint ticket = atomicAdd(tickets, 1u);
    if (ticket == gl_WorkGroupSize.x - 1u) result = x[tid];
    if (ticket == gl_WorkGroupSize.x - 1u) x[64] = result * 2u;
}
