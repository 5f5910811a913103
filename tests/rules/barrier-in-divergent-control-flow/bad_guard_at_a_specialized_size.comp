#version 450
// The guard matches the default size only: the application may specialize
// the workgroup to 256 invocations, and then half of them return.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WIDTH = 128;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint rows; };
shared float tile[512];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.y;
    if (tid >= 128u || row >= rows) return;
    tile[tid] = data[row * 128u + tid];
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_LocalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-4: "gl_LocalInvocationID differs between the invocations of a workgroup"
    data[row * 128u + tid] = tile[127u - tid];
}
