#version 450
// At the default workgroup size of 64 each invocation reads back only what it
// wrote, but with a larger size set at pipeline creation tile[tid % 64] is
// another invocation's element: with specialization constants klint does not
// claim that invocations keep to their own elements.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 64;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = tile[tid % 64];
}
