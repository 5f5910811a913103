#version 450
// A row maximum whose accumulator starts at 0: every invocation folds 0 into
// its maximum, so a row of negative numbers gets 0.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float row_max[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    float m = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += 32u) m = max(m, x[row * n + i]);
    m = subgroupMax(m);  // expect: reduction-non-identity "the subgroup max takes 0 from invocations whose accumulator keeps its starting value, and 0 is not the identity of a max (-inf is)"
    // expect-note@-2: "the accumulator starts at 0, and every iteration folds it into the max"
    // expect-note@-3: "klint assumes the values can be lower than 0"
    if (subgroupElect()) row_max[row] = m;
}
