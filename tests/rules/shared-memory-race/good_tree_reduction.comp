#version 450
// The classic tree reduction: each step reads the upper half that the step
// before wrote, with a barrier between steps, and a barrier before the
// broadcast read is overwritten.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
shared float s[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    s[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = gl_WorkGroupSize.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        barrier();
    }
    float total = s[0];
    barrier();
    s[tid] = x[gl_GlobalInvocationID.x] / total;
    x[gl_GlobalInvocationID.x] = s[tid];
}
