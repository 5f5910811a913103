#version 450
// A helper that returns early for rows past the end, called in a loop: the
// return hangs on the row alone, so the whole workgroup takes it together and
// the barriers of the halving reduction after it are reached by everyone.
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint rows; uint row_count; };
shared float lane_max[40];

void reduce_row(uint row) {
    if (row >= row_count) return;
    uint t = gl_LocalInvocationID.x;
    lane_max[t] = abs(x[row * 32u + t]);
    barrier();
    for (uint s = 4u; s > 0u; s >>= 1) {  // expect: manual-subgroup-reduction
        if ((t % 8u) < s) lane_max[t] = max(lane_max[t], lane_max[t + s]);
        barrier();
    }
    if ((t % 8u) == 0u) y[row * 4u + t / 8u] = lane_max[t];
}

void main() {
    for (uint r = 0u; r < rows; ++r) reduce_row(gl_WorkGroupID.x * rows + r);
}
