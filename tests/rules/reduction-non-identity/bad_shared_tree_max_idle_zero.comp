#version 450
// A tree maximum in shared memory: invocations past the end of the row store
// 0, which the tree then folds in with everyone's value.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float row_max[]; };
layout(push_constant) uniform P { uint n; };
shared float vals[128];

void main() {
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    vals[t] = t < n ? x[row * n + t] : 0.0;  // expect: reduction-non-identity "the max of shared 'vals' takes 0 from the invocations that take no element"
    // expect-note@-1: "0 is chosen here for the invocations outside the range"
    // expect-note@+4: "the array is folded here with max"
    // expect-note@-3: "klint assumes the values can be lower than 0"
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (t < s) vals[t] = max(vals[t], vals[t + s]);
        barrier();
    }
    if (t == 0u) row_max[row] = vals[0];
}
