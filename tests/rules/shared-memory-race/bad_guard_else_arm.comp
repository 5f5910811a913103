#version 450
// A workgroup of four: the else arm of `invocation 0` runs on three.
layout(local_size_x = 4) in;
layout(binding = 0) buffer Data { uint x[]; };
struct Pair { uint u; uint v; };
shared uint a;
shared Pair p;

void main() {
    uint tid = gl_LocalInvocationIndex;
    if (tid == 0u) a = 0u; else p.v = x[tid];  // expect: shared-memory-race confirmed "invocations 1 and 2 both write p"
    barrier();
    x[tid] = a + p.v;
}
