#version 450
// The running sum stays in a register and each step publishes it: a tree of
// 64 values whose steps run in the first 32 invocations.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float norms[]; };
layout(push_constant) uniform P { uint n; };
shared float sumsh[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;  // expect: workgroup-count-over-limit
    float sum = 0.0;
    for (uint i = tid; i < n; i += 64) sum += x[row * n + i] * x[row * n + i];
    sumsh[tid] = sum;
    barrier();
    // expect@+1: manual-subgroup-reduction "tree reduction over 'sumsh' runs within 32 invocations"
    for (uint s = 32; s > 0; s >>= 1) {
        if (tid < s) {
            sum += sumsh[tid + s];
            sumsh[tid] = sum;
        }
        barrier();
    }
    if (tid == 0) norms[row] = sqrt(sumsh[0]);
}
