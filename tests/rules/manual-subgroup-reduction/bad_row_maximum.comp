#version 450
// One row per 32 invocations, four rows per workgroup: each row's maximum by
// a shared-memory tree that never leaves the row's subgroup.
layout(local_size_x = 32, local_size_y = 4) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float row_max[]; };
layout(push_constant) uniform P { uint n; };
shared float best[4][32];

void main() {
    uint lane = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x * 4 + gl_LocalInvocationID.y;
    float m = -3.402823e38;
    for (uint i = lane; i < n; i += 32) m = max(m, x[row * n + i]);
    best[gl_LocalInvocationID.y][lane] = m;
    barrier();
    // expect@+1: manual-subgroup-reduction "tree reduction over 'best' runs within 16 invocations: subgroupMax() does it"
    for (uint s = 16; s > 0; s >>= 1) {
        if (lane < s) best[gl_LocalInvocationID.y][lane] = max(best[gl_LocalInvocationID.y][lane], best[gl_LocalInvocationID.y][lane + s]);
        barrier();
    }
    if (lane == 0) row_max[row] = best[gl_LocalInvocationID.y][0];
}
