#version 450
// Remaps of the invocation index by shifts, masks and XOR: each guard picks
// one writer, or one per group of eight.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint group_sum[8];
shared uint first;
shared uint swizzled;

void main() {
    uint tid = gl_LocalInvocationIndex;
    uint lane = tid & 7u;
    uint group = tid >> 3;
    if (lane == 0u) group_sum[group] = 0u;
    // A Morton-style swizzle: invocation 0 alone maps to 0.
    uint swizzle = ((tid >> 1) ^ tid) & 63u;
    if (swizzle == 0u) first = x[tid];
    if ((~tid & 63u) == 0u) swizzled = x[tid];
    barrier();
    atomicAdd(group_sum[group], x[tid]);
    barrier();
    if (lane == 0u) x[group] = group_sum[group] + first + swizzled;
}
