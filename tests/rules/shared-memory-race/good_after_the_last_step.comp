#version 450
// A loop with a barrier at the top of every step and a guard that shrinks:
// after the loop, only what the last step wrote can still be in flight, and
// the loop runs at least once, so the store before it is behind a barrier.
// Found as a false positive while writing an up-sweep.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { uint data[]; };
shared uint temp[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    temp[2 * tid] = data[2 * tid];
    temp[2 * tid + 1] = data[2 * tid + 1];
    for (uint d = 32; d > 0; d >>= 1) {
        barrier();
        if (tid < d) temp[2 * tid + 1] += 1;
    }
    if (tid == 0) temp[63] = 0;  // the last step wrote only temp[1], by this invocation
    barrier();
    data[tid] = temp[tid];
}
