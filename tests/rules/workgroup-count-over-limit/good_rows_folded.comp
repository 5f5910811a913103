#version 450
// Rows spread over three axes: the y and z ids extend the reach of x far
// past 65,535, and y and z each cover whole runs of rows.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint ncols; uint nrows; } p;

void main() {
    const uint row = gl_WorkGroupID.z * 262144 + gl_WorkGroupID.y * 512 + gl_WorkGroupID.x;
    if (row >= p.nrows) return;
    float m = -3.4e38;
    for (uint c = gl_LocalInvocationID.x; c < p.ncols; c += 128) m = max(m, x[row * p.ncols + c]);
    y[row * p.ncols + gl_LocalInvocationID.x] = m;
}
