#version 450
// The fix the seeds give: every invocation stores, the idle ones a zero.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float sums[]; };
layout(push_constant) uniform P { uint D; };
shared float partial[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = tid < D ? x[gl_WorkGroupID.x * D + tid] : 0.0;  // expect: workgroup-count-over-limit
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
