#version 450
// A row-wise RMS norm whose invocations past the row's end leave before the
// reduction's barriers.
// pitfall: barrier-in-divergent-control-flow
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint cols; float eps; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
shared float partial[64];

void main() {
    uint row = gl_WorkGroupID.x;
    uint col = gl_LocalInvocationID.x;
    if (col >= p.cols) return;
    float v = x[row * p.cols + col];
    partial[col] = v * v;
    barrier();
    for (uint s = 32; s > 0; s >>= 1) {
        if (col < s) partial[col] += partial[col + s];
        barrier();
    }
    y[row * p.cols + col] = v * inversesqrt(partial[0] / float(p.cols) + p.eps);
}
