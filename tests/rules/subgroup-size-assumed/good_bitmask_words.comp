#version 450
// Stream compaction with one bit per invocation in 32-bit words: / 32 picks
// the word and % 32 the bit, whatever the subgroup width. The subgroup sum
// of survivors is unrelated to the word layout.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Keys { uint keys[]; };
layout(binding = 1) buffer Out { uint compacted[]; };
layout(binding = 2) buffer Count { uint survivors; };
shared uint mask[4];

void main() {
    uint tid = gl_LocalInvocationIndex;
    if (tid % 32 == 0) mask[tid / 32] = 0u;
    barrier();
    uint key = keys[gl_GlobalInvocationID.x];
    bool keep = key != 0u;
    if (keep) atomicOr(mask[tid / 32], 1u << (tid % 32));
    barrier();
    uint before = 0u;
    for (uint w = 0; w < tid / 32; ++w) before += bitCount(mask[w]);
    before += bitCount(mask[tid / 32] & ((1u << (tid % 32)) - 1u));
    if (keep) compacted[gl_WorkGroupID.x * 128 + before] = key;
    uint kept = subgroupAdd(keep ? 1u : 0u);
    if (subgroupElect()) atomicAdd(survivors, kept);
}
