#version 450
// No local_size; the host runs 64x1 workgroups (--workgroup-size): a
// workgroup is one row, so the early return on the row count keeps or drops
// whole workgroups and every invocation that stays reaches the barrier.
// fixture-options: --workgroup-size=64,1,1
// expect-file-note: "klint analyzed it at 64x1x1, the size --workgroup-size gives"
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Push { uint rows; };
shared float tile[64];

void main() {
    if (gl_GlobalInvocationID.y >= rows) return;
    uint tid = gl_LocalInvocationIndex;
    tile[tid] = data[gl_GlobalInvocationID.y * 64 + gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.y * 64 + gl_GlobalInvocationID.x] = tile[63 - tid];
}
