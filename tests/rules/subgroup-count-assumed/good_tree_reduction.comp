#version 450
// A tree over per-subgroup sums with a slot per invocation: every count comes
// from gl_NumSubgroups.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float sumsh[256];

void main() {
    float sum_sq = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += 256) sum_sq += x[i] * x[i];
    sum_sq = subgroupAdd(sum_sq);
    if (gl_SubgroupInvocationID == 0) sumsh[gl_SubgroupID] = sum_sq;
    barrier();
    for (uint s = gl_NumSubgroups / 2; s > 0; s >>= 1) {
        if (gl_SubgroupID < s && gl_SubgroupInvocationID == 0) {
            sum_sq += sumsh[gl_SubgroupID + s];
            sumsh[gl_SubgroupID] = sum_sq;
        }
        barrier();
    }
    if (gl_LocalInvocationID.x == 0) sums[gl_WorkGroupID.x] = sqrt(sumsh[0]);  // expect: workgroup-count-over-limit
}
