#version 450
// The shape of llama.cpp's RWKV state: 64 floats per invocation (256 bytes,
// at the threshold, not over it), every loop over it [[unroll]]ed with a
// constant trip count, so every index becomes a constant.
#extension GL_EXT_control_flow_attributes : require
#define HEAD 64
layout(local_size_x = HEAD) in;
layout(binding = 0) readonly buffer Keys { float keys[]; };
layout(binding = 1) buffer State { float state_io[]; };
layout(push_constant) uniform Params { uint n_tokens; };

shared float key[HEAD];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * HEAD * HEAD;
    float state[HEAD];
    [[unroll]] for (uint i = 0; i < HEAD; i++) state[i] = state_io[base + i * HEAD + tid];
    for (uint t = 0; t < n_tokens; ++t) {
        barrier();
        key[tid] = keys[(t * gl_NumWorkGroups.x + gl_WorkGroupID.x) * HEAD + tid];
        barrier();
        [[unroll]] for (uint j = 0; j < HEAD; j += 4) {
            vec4 s = vec4(state[j], state[j + 1], state[j + 2], state[j + 3]);
            s = s * 0.5 + vec4(key[j], key[j + 1], key[j + 2], key[j + 3]);
            state[j] = s.x;
            state[j + 1] = s.y;
            state[j + 2] = s.z;
            state[j + 3] = s.w;
        }
    }
    [[unroll]] for (uint i = 0; i < HEAD; i++) state_io[base + i * HEAD + tid] = state[i];
}
