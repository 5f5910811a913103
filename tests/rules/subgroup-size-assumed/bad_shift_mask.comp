#version 450
// The same assumption spelled with masks and shifts, and a lane from the
// invocation index passed to a shuffle.
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float data[]; };
shared float maxima[4];

void main() {
    uint tid = gl_LocalInvocationIndex;
    uint lane = tid & 31;  // expect: subgroup-size-assumed confirmed "'& 31' on gl_LocalInvocationIndex assumes 32-wide subgroups"
    uint warp = tid >> 5;  // expect: subgroup-size-assumed confirmed "'>> 5' on gl_LocalInvocationIndex assumes 32-wide subgroups"
    float v = data[gl_GlobalInvocationID.x];
    float neighbour = subgroupShuffle(v, lane ^ 1u);
    float m = subgroupMax(max(v, neighbour));
    if (subgroupElect()) maxima[warp] = m;
    barrier();
    if (tid == 0) data[gl_WorkGroupID.x] = max(max(maxima[0], maxima[1]), max(maxima[2], maxima[3]));
}
