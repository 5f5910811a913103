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
    if (tid < 32) {  // expect: subgroup-size-assumed "taking the first 32 invocations for one subgroup"
        float v = partial[tid] + partial[tid + 32] + partial[tid + 64] + partial[tid + 96];
        v = subgroupMax(v);  // expect: subgroup-operation-in-divergent-control-flow "gl_LocalInvocationIndex"
        if (tid == 0) x[gl_WorkGroupID.x] = v;
    }
}
