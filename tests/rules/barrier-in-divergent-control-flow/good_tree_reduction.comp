#version 450
// The correct tree reduction: the `if` guards the work, not the barrier.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float values[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    partial[tid] = i < n ? values[i] : 0.0;  // idle invocations contribute zero
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0) sums[gl_WorkGroupID.x] = partial[0];
}
