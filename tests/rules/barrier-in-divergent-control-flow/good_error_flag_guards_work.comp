#version 450
// The flag the allocator sets may differ between the invocations of a
// workgroup, so each decides only whether it does its own work; none leaves
// the control flow that reaches the barriers.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Pool { uint next; uint failed; uint words[]; };
shared uint offsets[64];

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
    bool ok = failed == 0u;
    uint offset = 0u;
    if (ok) {
        offset = allocate(tid + 1u);
    }
    offsets[tid] = offset;
    barrier();
    if (ok) {
        words[offsets[63u - tid]] = tid;
    }
}
