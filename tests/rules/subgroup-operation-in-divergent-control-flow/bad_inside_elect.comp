#version 450
// Inside subgroupElect() one invocation runs: its "sum" is its own value.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { uint x[]; };
layout(binding = 1) buffer Total { uint total; };

void main() {
    uint v = x[gl_GlobalInvocationID.x];
    if (subgroupElect()) {
        atomicAdd(total, subgroupAdd(v));  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupAdd" // expect-note@-1: "never reach subgroupAdd; the condition depends on subgroupElect()" // expect-note@-1: "subgroupElect is true in one invocation of each subgroup"
    }
}
