#version 450
// subgroupAll answers for one subgroup. A workgroup of 128 may hold several
// (32 invocations each on many GPUs), and nothing combines their answers, so
// some subgroups return while the others wait at the barrier. A check of the
// subgroup size against a width smaller than the workgroup does not help.
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[128];
shared float spare[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float x = data[gl_GlobalInvocationID.x];
    if (gl_SubgroupSize == 32u) {
        if (subgroupAny(x > 4.0)) {
            spare[tid] = x;
            barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-4: "gl_GlobalInvocationID differs between the invocations of a workgroup"
            x = spare[127u - tid];
        }
    }
    if (subgroupAll(x < 1.0)) return;
    tile[tid] = x;
    barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID" // expect-note@-2: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-10: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    data[gl_GlobalInvocationID.x] = tile[127u - tid];
}
