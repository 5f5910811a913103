#version 450
// A count fixed at compile time: 64 workgroups, one per slot of a fixed
// array, is what the kernel is for on every run.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Slots { uint slots[64]; };
shared uint total;

void main() {
    if (gl_LocalInvocationID.x == 0) total = 0;
    barrier();
    atomicAdd(total, 1u);
    barrier();
    if (gl_LocalInvocationID.x == 0 && gl_WorkGroupID.x < 64) slots[gl_WorkGroupID.x] = total;
}
