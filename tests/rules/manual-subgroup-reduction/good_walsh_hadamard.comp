#version 450
// A Walsh-Hadamard transform: each step writes the sum to one element and the
// difference to its partner. Not a reduction.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float data[]; };
shared float v[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 64;
    v[tid] = data[base + tid];
    v[tid + 32] = data[base + tid + 32];
    barrier();
    for (uint h = 32; h > 0; h >>= 1) {
        uint i = (tid / h) * 2 * h + tid % h;
        float a = v[i];
        float b = v[i + h];
        v[i] = a + b;
        v[i + h] = a - b;
        barrier();
    }
    data[base + tid] = v[tid];
    data[base + tid + 32] = v[tid + 32];
}
