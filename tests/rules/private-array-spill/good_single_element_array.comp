#version 450
// Partial sums sized by specialization constants whose defaults make the
// array one element long: any index into it is 0, even the counter of a loop
// whose bound is only known at run time (the last, partial group of rows).
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint NUM_ROWS = 1;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer D { float d[]; };
layout(push_constant) uniform Params { uint rows, cols; };

void rows_from(uint first, uint count) {
    float sums[NUM_ROWS];
    [[unroll]] for (uint n = 0; n < count; ++n) sums[n] = 0.0;
    for (uint c = gl_LocalInvocationID.x; c < cols; c += 64) {
        [[unroll]] for (uint n = 0; n < count; ++n) sums[n] += a[(first + n) * cols + c];
    }
    [[unroll]] for (uint n = 0; n < count; ++n) d[(first + n) * 64 + gl_LocalInvocationID.x] = sums[n];
}

void main() {
    uint first = gl_WorkGroupID.x * NUM_ROWS;
    if (first + NUM_ROWS <= rows) {
        rows_from(first, NUM_ROWS);
    } else if (first < rows) {
        rows_from(first, min(NUM_ROWS, rows - first));
    }
}
