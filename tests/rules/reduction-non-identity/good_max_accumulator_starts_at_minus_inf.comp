#version 450
// A row maximum whose accumulator starts at -inf, and a maximum of
// exponentials (never negative) that may start at 0.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer RowMax { float row_max[]; };
layout(binding = 2) writeonly buffer ExpMax { float exp_max[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    float m = -1.0 / 0.0;
    float e = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += 32u) {
        m = max(m, x[row * n + i]);
        e = max(e, exp(x[row * n + i]));
    }
    m = subgroupMax(m);
    e = subgroupMax(e);
    if (subgroupElect()) {
        row_max[row] = m;
        exp_max[row] = e;
    }
}
