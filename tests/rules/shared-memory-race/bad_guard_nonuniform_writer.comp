#version 450
// Writers chosen by values that are not one per workgroup: the diagonal of
// the tile (eight invocations), every invocation below a push-constant
// bound, and two tickets of two counters, which two invocations may draw.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) buffer Data { uint x[]; };
layout(push_constant) uniform Params { uint n; } pc;
shared uint diagonal;
shared uint bounded;
shared uint first_ticket;
shared uint counters[2];

void main() {
    uint tid = gl_LocalInvocationIndex;
    if (tid < 2u) counters[tid] = 0u;
    if (gl_LocalInvocationID.x == gl_LocalInvocationID.y) diagonal = x[tid];  // expect: shared-memory-race confirmed "invocations (0, 0) and (1, 1) both write diagonal"
    if (tid < pc.n) bounded = x[tid];  // expect: shared-memory-race confirmed "both write bounded with no barrier between, when n = 64"
    barrier();
    // A run gives both tickets to one invocation, but two may draw them.
    if (atomicAdd(counters[0], 1u) == 0u) first_ticket = 1u;
    if (atomicAdd(counters[1], 1u) == 0u) first_ticket = 2u;  // expect: shared-memory-race not-reproduced "invocation (0, 0) writes first_ticket while invocation (1, 0) writes it"
    // expect-note@-2: "invocation (1, 0) writes first_ticket here"
    // expect-note@-2: "takes it to be true for invocation (0, 0)"
    // expect-note@-4: "takes it to be true for invocation (1, 0)"
    barrier();
    x[tid] = diagonal + bounded + first_ticket;
}
