#version 450
// The seeds' walkthrough: invocations past the row length skip the store, and
// the tree reduction then adds the slots they never wrote.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float sums[]; };
layout(push_constant) uniform P { uint D; };
shared float partial[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < D) partial[tid] = x[gl_WorkGroupID.x * D + tid];  // expect: workgroup-count-over-limit
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        // expect@+1: uninitialized-shared-read confirmed "invocation 63 reads partial[127], which no invocation writes before it when D = 127" // expect-note@-3: "'partial' is written here, but not at partial[127] when D = 127"
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
