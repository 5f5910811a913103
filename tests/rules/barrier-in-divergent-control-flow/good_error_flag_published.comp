#version 450
// One invocation loads the flag the allocator sets and publishes it through
// shared memory; after the barrier every invocation tests the one shared
// value, so they all leave, or all stay.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Pool { uint next; uint failed; uint words[]; };
shared uint offsets[64];
shared uint give_up;

uint allocate(uint size) {
    uint offset = atomicAdd(next, size);
    if (offset + size > uint(words.length())) {
        atomicMax(failed, 1u);
        return 0u;
    }
    return offset;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid == 0u) {
        give_up = failed;
    }
    barrier();
    if (give_up != 0u) {
        return;
    }
    offsets[tid] = allocate(tid + 1u);
    barrier();
    words[offsets[63u - tid]] = tid;
}
