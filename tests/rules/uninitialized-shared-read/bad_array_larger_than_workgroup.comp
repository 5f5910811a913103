#version 450
// The reduction was written for 256 invocations; the workgroup shrank to 128
// and the first step still reads the upper half.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
shared float s[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    s[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 128; stride > 0; stride >>= 1) {
        // expect@+1: uninitialized-shared-read confirmed "invocation 0 reads s[128], which no invocation writes before it" // expect-note@-3: "'s' is written here, but not at s[128]"
        if (tid < stride) s[tid] += s[tid + stride];
        barrier();
    }
    if (tid == 0) x[gl_WorkGroupID.x] = s[0];
}
