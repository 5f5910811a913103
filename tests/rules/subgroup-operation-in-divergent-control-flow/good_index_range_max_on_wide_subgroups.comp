#version 450
// The first 32 invocations hold one whole subgroup on 32-wide GPUs, but only
// a quarter of one on Adreno's 128-wide subgroups. The maximum over the active
// lanes is still the maximum of those 32 values there: a reduction is defined
// on the lanes that run it. Taking 32 invocations for one subgroup is another
// rule's finding.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationIndex;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    if (tid < 32) {  // expect: subgroup-size-assumed "taking the first 32 invocations for one subgroup" // expect-note@+2: "the subgroup operation here then spans several subgroups"
        float v = partial[tid] + partial[tid + 32] + partial[tid + 64] + partial[tid + 96];
        v = subgroupMax(v);
        if (tid == 0) x[gl_WorkGroupID.x] = v;
    }
}
