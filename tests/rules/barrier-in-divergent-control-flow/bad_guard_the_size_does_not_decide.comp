#version 450
// The same guard at half the workgroup's width: the upper half returns, and
// the barrier waits for it.
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint rows; };
shared float tile[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.y;
    if (tid >= 64u || row >= rows) return;
    tile[tid] = data[row * 128u + tid];
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_LocalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-4: "gl_LocalInvocationID differs between the invocations of a workgroup"
    data[row * 128u + tid] = tile[63u - tid];
}
