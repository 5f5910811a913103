#version 450
// The trip count is a push constant or a specialization constant, chosen by a
// boolean specialization constant: at its default the bound is a constant,
// and the [[unroll]]ed loop indexes `scores` with constants.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint COUNT_SPEC = 256;
layout(constant_id = 1) const bool COUNT_FROM_PUSH = false;
layout(binding = 0) readonly buffer Logits { float logits[]; };
layout(binding = 1) writeonly buffer Best { float best[]; };
layout(push_constant) uniform Params { uint count_push; };

const uint PER_LANE = COUNT_SPEC / 32;

void main() {
    uint count = COUNT_FROM_PUSH ? count_push : COUNT_SPEC;
    uint lane = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;
    float scores[PER_LANE];
    [[unroll]] for (uint i = 0; i < count; i += 32) {
        scores[i / 32] = logits[row * COUNT_SPEC + i + lane];
    }
    float top = scores[0];
    [[unroll]] for (uint i = 1; i < PER_LANE; ++i) top = max(top, scores[i]);
    best[row * 32 + lane] = top;
}
