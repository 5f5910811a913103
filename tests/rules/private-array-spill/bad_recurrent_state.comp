#version 450
// A recurrent-attention kernel in the style of llama.cpp's RWKV kernels: a
// 64-element state per invocation, walked by loop counters. The loops have a
// constant trip count but no [[unroll]], and 64 elements are more than
// drivers unroll on their own.
#define BLOCK_SIZE 64
#define A_TYPE float
layout(local_size_x = BLOCK_SIZE) in;
layout(binding = 0) readonly buffer KBuf { A_TYPE k[]; };
layout(binding = 1) readonly buffer StateIn { A_TYPE state_in[]; };
layout(binding = 2) buffer Dst { A_TYPE dst[]; };
layout(push_constant) uniform Params { uint n_tokens; };

shared A_TYPE key[BLOCK_SIZE];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint head = gl_WorkGroupID.x;
    A_TYPE state[BLOCK_SIZE];  // expect: private-array-spill inconclusive "'state' of 64 floats (256 bytes) is indexed dynamically"
    for (uint i = 0; i < BLOCK_SIZE; i++) state[i] = state_in[(head * BLOCK_SIZE + i) * BLOCK_SIZE + tid];
    for (uint t = 0; t < n_tokens; ++t) {
        barrier();
        key[tid] = k[(t * gl_NumWorkGroups.x + head) * BLOCK_SIZE + tid];
        barrier();
        A_TYPE y = 0.0;
        for (uint j = 0; j < BLOCK_SIZE; j++) {
            state[j] = state[j] * 0.9 + key[j];
            y += state[j];
        }
        dst[(t * gl_NumWorkGroups.x + head) * BLOCK_SIZE + tid] = y;
    }
}
