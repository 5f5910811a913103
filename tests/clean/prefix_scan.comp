#version 450
// Inclusive prefix sum of one block (Hillis-Steele), double-buffered so that a
// step never reads what the same step writes.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float buffers[2][128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 128;
    uint read = 0;
    buffers[0][tid] = data[base + tid];
    barrier();
    for (uint offset = 1; offset < 128; offset <<= 1) {
        float v = buffers[read][tid];
        if (tid >= offset) v += buffers[read][tid - offset];
        buffers[1 - read][tid] = v;
        read = 1 - read;
        barrier();
    }
    data[base + tid] = buffers[read][tid];
}
