#version 450
// Remaps that look like a single writer and are not: a mask that keeps
// sixteen invocations, and a bit-field that ignores the lowest bit.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint total;
shared uint flag;

void main() {
    uint tid = gl_LocalInvocationIndex;
    if ((tid & 0x30u) == 0u) total = 0u;  // expect: shared-memory-race confirmed "invocations 0 and 1 both write total"
    if (bitfieldExtract(tid, 1, 5) == 0u) flag = x[tid];  // expect: shared-memory-race confirmed "invocations 0 and 1 both write flag"
    barrier();
    x[tid] = total + flag;
}
