#version 450
// The first 32 invocations hold one whole subgroup on 32-wide GPUs, but only
// a quarter of one on Adreno's 128-wide subgroups.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationIndex;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    if (tid < 32) {  // expect: subgroup-size-assumed "taking the first 32 invocations for one subgroup" // expect-note@+2: "the subgroup operation here then spans several subgroups"
        float v = partial[tid] + partial[tid + 32] + partial[tid + 64] + partial[tid + 96];
        v = subgroupMax(v);  // expect: subgroup-operation-in-divergent-control-flow "gl_LocalInvocationIndex" // expect-note@-2: "never reach subgroupMax; the condition depends on gl_LocalInvocationIndex" // expect-note@-2: "invocation index 32 falls inside a subgroup on amd-rdna2-wave32 (subgroups of up to 64 invocations) and qualcomm-adreno-6xx (subgroups of up to 128 invocations)" // expect-note@-5: "gl_LocalInvocationIndex differs between the invocations of a subgroup"
        if (tid == 0) x[gl_WorkGroupID.x] = v;
    }
}
