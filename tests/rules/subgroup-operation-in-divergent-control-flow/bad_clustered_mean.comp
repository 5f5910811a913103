#version 450
// Blocks of four values, averaged with a clustered sum scaled by 1/4: the
// bounds check on a run-time n may end inside a cluster, whose sum then
// covers fewer than four values.
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    float mean = subgroupClusteredAdd(x[i], 4u) * 0.25;  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupClusteredAdd in control flow that depends on gl_GlobalInvocationID, so it combines only the active lanes, but its result is used as if every lane of the cluster of 4 lanes took part" // expect-note@-1: "never reach subgroupClusteredAdd" // expect-note@-2: "gl_GlobalInvocationID differs" // expect-note: "the result meets the cluster size 4 here"
    x[i] -= mean;
}
