#version 450
// [[unroll]] loops whose counters step by shifts and by values of enclosing
// counters, whose bounds are min() of those, and a signed counter compared
// with an unsigned constant: every trip count is known once the enclosing
// loops are unrolled, so the butterfly over `vals` stays in registers.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint WIDTH = 64;
const uint PER_LANE = WIDTH / 32;
const uint BATCH = 3;
layout(binding = 0) buffer Data { float data[]; };

void main() {
    uint lane = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * WIDTH;
    float vals[PER_LANE * 4];
    [[unroll]] for (int i = 0; i < PER_LANE * 4; i++) vals[i] = data[base + uint(i) * 32 + lane];
    [[unroll]] for (uint span = 1; span < PER_LANE * 4; span <<= 1) {
        [[unroll]] for (uint start = 0; start < PER_LANE * 4; start += 2 * span) {
            [[unroll]] for (uint k = 0; k < span; ++k) {
                float x = vals[start + k];
                float y = vals[start + k + span];
                vals[start + k] = x + y;
                vals[start + k + span] = x - y;
            }
        }
    }
    [[unroll]] for (uint first = 0; first < PER_LANE * 4; first += BATCH) {
        uint count = min(BATCH, PER_LANE * 4 - first);
        [[unroll]] for (uint k = 0; k < count; ++k) data[base + (first + k) * 32 + lane] = vals[first + k];
    }
}
