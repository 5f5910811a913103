#version 450
// The last steps of a workgroup reduction written out, each behind a barrier:
// correct, but once the values fit one subgroup the barriers and shared
// memory only slow it down.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { uint counts[]; };
shared uint hist[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    hist[tid] = counts[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 128; s > 16; s >>= 1) {
        if (tid < s) hist[tid] += hist[tid + s];
        barrier();
    }
    // expect@+1: manual-subgroup-reduction "tree reduction over 'hist' runs within 16 invocations: subgroupAdd() does it"
    if (tid < 16) hist[tid] += hist[tid + 16];
    barrier();
    if (tid < 8) hist[tid] += hist[tid + 8];
    barrier();
    if (tid < 4) hist[tid] += hist[tid + 4];
    barrier();
    if (tid < 2) hist[tid] += hist[tid + 2];
    barrier();
    if (tid < 1) hist[tid] += hist[tid + 1];  // invocation 0 reads its own result: no barrier
    if (tid == 0) counts[gl_WorkGroupID.x] = hist[0];
}
