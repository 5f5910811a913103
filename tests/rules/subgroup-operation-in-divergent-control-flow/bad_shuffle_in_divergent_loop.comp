#version 450
// A loop whose trip count differs between lanes: in its last iterations some
// lanes have left, and the shuffle reads lanes that are no longer there.
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
layout(binding = 1) readonly buffer Counts { uint count[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0; k < count[i]; ++k) {
        // expect@+1: subgroup-operation-in-divergent-control-flow inconclusive "subgroupShuffle in control flow that depends on" // expect-note@-1: "this loop condition depends on gl_GlobalInvocationID, so invocations leave the loop at different iterations and the later ones run with part of the subgroup" // expect-note@-3: "gl_GlobalInvocationID differs between the invocations of a subgroup"
        acc += subgroupShuffle(x[i + k], gl_SubgroupInvocationID ^ 1u);
    }
    x[i] = acc;
}
