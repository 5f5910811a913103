#version 450
// A register tile sized by specialization constants and walked by nested
// [[unroll]] loops whose counters combine into one index, inside a loop over
// K with a run-time trip count: once unrolled, every index is a constant.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint ROWS = 2;
layout(constant_id = 1) const uint COLS = 4;
layout(binding = 0) readonly buffer A { vec2 a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { vec2 c[]; };
layout(push_constant) uniform Params { uint K; };

void main() {
    const uint PAIRS = ROWS * COLS / 2;
    vec2 tile[PAIRS * 2];
    [[unroll]] for (uint t = 0; t < PAIRS * 2; ++t) tile[t] = vec2(0.0);
    for (uint k = 0; k < K; ++k) {
        [[unroll]] for (uint row = 0; row < ROWS; ++row) {
            [[unroll]] for (uint pair = 0; pair < COLS / 2; ++pair) {
                uint at = (row * (COLS / 2) + pair) * 2;
                tile[at] += a[k * 64 + gl_LocalInvocationID.x] * b[k * ROWS + row];
                tile[at + 1] -= a[k * 64 + gl_LocalInvocationID.x] * b[k * ROWS + row];
            }
        }
    }
    [[unroll]] for (uint t = 0; t < PAIRS * 2; ++t) c[gl_GlobalInvocationID.x * PAIRS * 2 + t] = tile[t];
}
