#version 450
// On targets whose subgroups hold at most 64 invocations, the first 64 are
// whole subgroups.
// fixture-options: --target=nvidia-ampere,amd-rdna2-wave32,arm-mali-valhall
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float x[]; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationIndex;
    partial[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    if (tid < 64) {
        float v = partial[tid] + partial[tid + 64] + partial[tid + 128] + partial[tid + 192];
        v = subgroupMax(v);
        x[gl_GlobalInvocationID.x] = v;  // each invocation keeps its own subgroup's maximum
    }
}
