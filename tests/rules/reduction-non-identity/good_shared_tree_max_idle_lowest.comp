#version 450
// A tree maximum in shared memory: invocations past the end of the row store
// -inf, which leaves every maximum alone; a tree sum beside it stores 0.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float row_max[]; };
layout(binding = 2) writeonly buffer Sums { float row_sum[]; };
layout(push_constant) uniform P { uint n; };
shared float vals[128];
shared float sums[128];

void main() {
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    vals[t] = t < n ? x[row * n + t] : -1.0 / 0.0;
    sums[t] = t < n ? x[row * n + t] : 0.0;
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (t < s) {
            vals[t] = max(vals[t], vals[t + s]);
            sums[t] = sums[t] + sums[t + s];
        }
        barrier();
    }
    if (t == 0u) {
        row_max[row] = vals[0];
        row_sum[row] = sums[0];
    }
}
