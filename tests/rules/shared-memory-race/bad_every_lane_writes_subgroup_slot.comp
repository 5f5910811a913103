#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// Every lane stores its subgroup's sum into the subgroup's one slot; only one
// of them should (subgroupElect()).
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[128];

void main() {
    float sum = subgroupAdd(x[gl_GlobalInvocationID.x]);
    partial[gl_SubgroupID] = sum;  // expect: shared-memory-race confirmed "invocations 0 and 1 both write partial[0]"
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float total = 0.0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) total += partial[s];
        x[gl_WorkGroupID.x] = total;
    }
}
