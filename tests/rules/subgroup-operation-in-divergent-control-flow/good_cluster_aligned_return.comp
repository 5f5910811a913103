#version 450
// Blocks of eight values, one lane each, quantized with clustered reductions
// over clusters of 8. The early return tests the block's index (lane / 8), so
// whole clusters leave together and every cluster that reduces is whole: its
// maximum and its mean are over all eight values.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Scale { float scale[]; };
layout(binding = 2) writeonly buffer Mean { float mean[]; };
layout(push_constant) uniform Params { uint blocks; uint blocks_per_group; };

void main() {
    uint lane = gl_SubgroupInvocationID;
    uint block = gl_WorkGroupID.x * blocks_per_group + lane / 8u;
    if (block / 4u >= blocks) return;
    float v = src[block * 8u + lane % 8u];
    float amax = subgroupClusteredMax(abs(v), 8u);
    float avg = subgroupClusteredAdd(v, 8u) / 8.0;
    if (lane % 8u == 0u) {
        scale[block] = amax / 127.0;
        mean[block] = avg;
    }
}
