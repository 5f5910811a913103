#version 450
// A store of accumulators in unrolled loops, one of which stops early at the
// edge of the matrix (a run-time bound). The early exit leaves the indices
// constants in every iteration that runs: the counters of the loops around it
// only pass through it unchanged.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer D { float d[]; };
layout(push_constant) uniform Params { uint rows; };

void main() {
    float sums[16];
    [[unroll]] for (uint i = 0u; i < 16u; i++) sums[i] = a[i * 64u + gl_LocalInvocationID.x];
    [[unroll]] for (uint tile_col = 0u; tile_col < 2u; tile_col++) {
        [[unroll]] for (uint tile_row = 0u; tile_row < 2u; tile_row++) {
            [[unroll]] for (uint col = 0u; col < 2u; col++) {
                uint row = gl_WorkGroupID.x * 4u + tile_col * 2u + col;
                if (row >= rows) break;
                [[unroll]] for (uint r = 0u; r < 2u; r++) {
                    uint at = (tile_col * 2u + col) * 4u + tile_row * 2u + r;
                    d[row * 64u + at] = sums[at];
                }
            }
        }
    }
}
