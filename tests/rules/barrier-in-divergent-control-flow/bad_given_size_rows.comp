#version 450
// No local_size; the host runs 8x8 workgroups (--workgroup-size). Rows of
// one workgroup then differ in gl_GlobalInvocationID.y, and the early return
// on the row count splits the workgroup before its barrier.
// fixture-options: --workgroup-size=8,8
// expect-file-note: "klint analyzed it at 8x8x1, the size --workgroup-size gives"
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Push { uint rows; };
shared float tile[64];

void main() {
    if (gl_GlobalInvocationID.y >= rows) return;
    uint tid = gl_LocalInvocationIndex;
    tile[tid] = data[gl_GlobalInvocationID.y * 8 + gl_GlobalInvocationID.x];
    barrier();  // expect: barrier-in-divergent-control-flow confirmed // expect-note@-3: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-3: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    data[gl_GlobalInvocationID.y * 8 + gl_GlobalInvocationID.x] = tile[63 - tid];
}
