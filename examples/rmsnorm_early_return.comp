#version 450
// Pitfall (seeds: kernel debugging walkthrough, steps 6-7): "threads with
// tid >= D must contribute zero to the reduction, not garbage". Returning early
// instead leaves the barriers below to only some invocations of the workgroup:
// the kernel hangs or reads partial sums that were never written.
// klint: barrier-in-divergent-control-flow, uninitialized-shared-read
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) readonly buffer W { float w[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Params { uint D; float eps; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;
    if (tid >= D) return;
    float v = x[row * D + tid];
    partial[tid] = v * v;
    barrier();
    for (uint s = 128; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    y[row * D + tid] = v * inversesqrt(partial[0] / float(D) + eps) * w[tid];
}
