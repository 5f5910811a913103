#version 450
// The seeds' fixed RMSNorm reduction: per-subgroup sums, a barrier, the first
// subgroup combines them, a second barrier before everyone reads the total.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) readonly buffer W { float w[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; float eps; };
shared float partial[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;  // expect: workgroup-count-over-limit
    float sum_sq = 0.0;
    for (uint i = tid; i < D; i += gl_WorkGroupSize.x) {
        float v = x[row * D + i];
        sum_sq += v * v;
    }
    sum_sq = subgroupAdd(sum_sq);
    if (gl_SubgroupInvocationID == 0) partial[gl_SubgroupID] = sum_sq;
    barrier();
    if (gl_SubgroupID == 0) {
        float p = gl_SubgroupInvocationID < gl_NumSubgroups ? partial[gl_SubgroupInvocationID] : 0.0;
        p = subgroupAdd(p);
        if (gl_SubgroupInvocationID == 0) partial[0] = p;
    }
    barrier();
    float scale = inversesqrt(partial[0] / float(D) + eps);
    for (uint i = tid; i < D; i += gl_WorkGroupSize.x) y[row * D + i] = x[row * D + i] * scale * w[i];
}
