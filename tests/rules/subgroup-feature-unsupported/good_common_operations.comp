#version 450
// Arithmetic, ballot, vote and shuffles: offered by every default target.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    float x = data[gl_GlobalInvocationID.x];
    x = subgroupAdd(x) + subgroupShuffleXor(x, 1u);
    if (subgroupAll(x > 0.0)) x += subgroupBroadcastFirst(x);
    data[gl_GlobalInvocationID.x] = x;
}
