#version 450
// Butterfly sums over groups of four lanes with shuffles by xor: a mask below
// 4 reads within the lane's aligned group of four, which the conditions keep
// whole (a bound at a multiple of 4; a test of the group's index).
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint rows; };

void main() {
    uint idx = gl_LocalInvocationIndex;
    float v = x[gl_GlobalInvocationID.x];
    if (idx < 64u) {
        v += subgroupShuffleXor(v, 1u);
        v += subgroupShuffleXor(v, 2u);
    }
    if (gl_GlobalInvocationID.x / 4u < rows) {
        [[unroll]] for (uint mask = 1u; mask < 4u; mask <<= 1u) v += subgroupShuffleXor(v, mask);
    }
    x[gl_GlobalInvocationID.x] = v;
}
