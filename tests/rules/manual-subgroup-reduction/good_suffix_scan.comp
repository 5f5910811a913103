#version 450
// A suffix sum (Hillis-Steele) over a zero-padded array: every step reads
// elements that the same step writes, which a reduction tree never does.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float data[]; };
shared float sums[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    sums[tid] = data[gl_GlobalInvocationID.x];
    sums[tid + 32] = 0.0;
    barrier();
    for (uint s = 1; s < 32; s *= 2) {
        float next = sums[tid + s];
        barrier();
        sums[tid] += next;
        barrier();
    }
    data[gl_GlobalInvocationID.x] = sums[tid];
}
