#version 450
// A row per workgroup: 128 invocations reduce one row, and the row count
// comes from a push constant. Past 65,535 rows one dispatch cannot reach them.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint ncols; uint nrows; } p;
shared float partial[128];

void main() {
    const uint row = gl_WorkGroupID.x;  // expect: workgroup-count-over-limit confirmed "each workgroup along x covers one index of a count the host passes (gl_WorkGroupID.x)"
    // expect-note@-1: "maxComputeWorkGroupCount.x is 65,535"
    // expect-note@-2: "Vulkan guarantees 65,535 workgroups"
    const uint tid = gl_LocalInvocationID.x;
    if (row >= p.nrows) return;  // expect-note: "the id is compared with a value the host passes"
    float sum = 0.0;
    for (uint col = tid; col < p.ncols; col += 128) {
        sum += x[row * p.ncols + col];
    }
    partial[tid] = sum;
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) y[row] = partial[0];
}
