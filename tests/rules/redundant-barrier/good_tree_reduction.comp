#version 450
// Tree reduction: every step reads what another invocation wrote in the step
// before, and the broadcast of the total needs the last barrier.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
shared float sums[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    sums[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) sums[tid] += sums[tid + s];
        barrier();
    }
    x[gl_GlobalInvocationID.x] /= sums[0];
}
