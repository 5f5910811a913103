#version 450
// The flag comes from a buffer this shader only reads (the stage before set
// it): every invocation of the workgroup loads the same value, and leaving
// early is uniform. The allocator writes a buffer of its own.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Pool { uint next; uint words[]; };
layout(binding = 1) readonly buffer Status { uint failed; };
shared uint offsets[64];

uint allocate(uint size) {
    uint offset = atomicAdd(next, size);
    return offset + size > uint(words.length()) ? 0u : offset;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (failed != 0u) {
        return;
    }
    offsets[tid] = allocate(tid + 1u);
    barrier();
    words[offsets[63u - tid]] = tid;
}
