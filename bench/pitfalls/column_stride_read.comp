#version 450
// Each invocation sums one row of a row-major matrix, so neighbours read a
// row apart.
// pitfall: uncoalesced-global-access
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint rows; uint cols; } p;
layout(std430, binding = 0) readonly buffer M { float m[]; };
layout(std430, binding = 1) writeonly buffer S { float sums[]; };

void main() {
    uint row = gl_GlobalInvocationID.x;
    if (row >= p.rows) return;
    float s = 0.0;
    for (uint c = 0; c < p.cols; ++c) s += m[row * p.cols + c];
    sums[row] = s;
}
