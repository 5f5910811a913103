#version 450
// An exclusive prefix sum (Blelloch): the up-sweep is a tree, but it adds the
// lower element into the upper one, and the down-sweep follows.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { uint data[]; };
shared uint temp[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 64;
    temp[2 * tid] = data[base + 2 * tid];
    temp[2 * tid + 1] = data[base + 2 * tid + 1];
    uint offset = 1;
    for (uint d = 32; d > 0; d >>= 1) {
        barrier();
        if (tid < d) {
            uint ai = offset * (2 * tid + 1) - 1;
            uint bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    barrier();
    if (tid == 0) temp[63] = 0;
    for (uint d = 1; d < 64; d *= 2) {
        offset >>= 1;
        barrier();
        if (tid < d) {
            uint ai = offset * (2 * tid + 1) - 1;
            uint bi = offset * (2 * tid + 2) - 1;
            uint t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier();
    data[base + 2 * tid] = temp[2 * tid];
    data[base + 2 * tid + 1] = temp[2 * tid + 1];
}
