#version 450
// The same counts for any width: words rounded up, the ballot counted with
// the built-in that reads every word, and the lane's own bit tested with
// subgroupInverseBallot.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Totals { uint total[]; };

void main() {
    bool positive = x[gl_GlobalInvocationID.x] > 0.0;
    uvec4 ballot = subgroupBallot(positive);
    uint words = (gl_SubgroupSize + 31u) / 32u;
    uint counted = 0u;
    for (uint w = 0u; w < words; ++w) counted += bitCount(ballot[w]);
    if (subgroupElect()) {
        atomicAdd(total[0], counted);
        atomicAdd(total[1], subgroupBallotBitCount(ballot));
    }
    if (subgroupInverseBallot(ballot)) atomicAdd(total[2], 1u);
}
