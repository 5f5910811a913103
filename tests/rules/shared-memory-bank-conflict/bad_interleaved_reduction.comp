#version 450
// The interleaved tree reduction: invocation tid works on s[2 * stride * tid],
// so as the stride grows the active invocations crowd onto a few banks.
// Sequential addressing (s[tid] += s[tid + stride]) has no conflict.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    partial[tid] = data[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 1; stride < 256; stride *= 2) {
        uint index = 2 * stride * tid;
        if (index < 256) partial[index] += partial[index + stride];  // expect: shared-memory-bank-conflict confirmed "8-way bank conflict on 'partial'"
        barrier();
    }
    if (tid == 0) data[gl_WorkGroupID.x] = partial[0];
}
