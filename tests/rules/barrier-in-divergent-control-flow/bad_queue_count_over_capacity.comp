#version 450
// Workgroups append to a queue and stop once it is full. The count they test
// is the one every workgroup adds to: invocations of one workgroup may load it
// before and after another's atomicAdd and disagree about leaving the loop.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Queue { uint count; uint items[]; };
layout(push_constant) uniform Params { uint capacity; uint rounds; };
shared uint batch[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint round = 0u; round < rounds; ++round) {
        if (count >= capacity) {
            break;
        }
        batch[tid] = round * 64u + tid;
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "buffer memory that the shader writes"
        // expect-note@-5: "never reach the barrier"
        // expect-note@-6: "loaded from buffer memory that this shader writes (line 20)"
        uint slot = atomicAdd(count, 1u);
        if (slot < capacity) items[slot] = batch[63u - tid];
        barrier();  // expect: barrier-in-divergent-control-flow inconclusive "buffer memory that the shader writes"
    }
}
