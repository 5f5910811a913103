#version 450
// Loops every lane runs the same number of times, and index ranges that hold
// whole subgroups on every target (a multiple of Adreno's 128).
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float acc = x[i];
    for (uint k = 0; k < n; ++k) acc += subgroupShuffle(acc, (gl_SubgroupInvocationID + k) % gl_SubgroupSize);
    if (gl_LocalInvocationIndex < 128) acc = subgroupAdd(acc);
    if (gl_LocalInvocationID.x >= 128) acc = subgroupMax(acc);
    if (gl_WorkGroupID.x * 256u >= n) return;  // the whole workgroup leaves, or none of it
    x[i] = subgroupAdd(acc);
}
