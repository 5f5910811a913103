#version 450
// Each workgroup gives up when an earlier allocation failed, but the allocator
// in this same shader sets the flag: a workgroup running alongside may set it
// between the loads of two invocations of this one, so some return and the
// others wait at the barrier for them.
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
    if (failed != 0u) {
        return;
    }
    offsets[tid] = allocate(tid + 1u);
    barrier();  // expect: barrier-in-divergent-control-flow inconclusive "buffer memory that the shader writes"
    // expect-note@-5: "invocations that branch away here never reach the barrier"
    // expect-note@-6: "loaded from buffer memory that this shader writes (line 13)"
    words[offsets[63u - tid]] = tid;
}
