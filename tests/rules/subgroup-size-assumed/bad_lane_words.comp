#version 450
// Lane masks in 32-bit words, written as if a subgroup had at least 32 lanes,
// or at most 32: the words per subgroup computed by a shift (0 on narrower
// subgroups), a ballot read through its first word alone, and a bit made by
// shifting by the lane (undefined for lanes 32 and up). Correct, the counts
// are the same at every width.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Totals { uint total[]; };

void main() {
    bool positive = x[gl_GlobalInvocationID.x] > 0.0;
    uvec4 ballot = subgroupBallot(positive);
    uint words = gl_SubgroupSize >> 5u;  // expect: subgroup-size-assumed not-reproduced "'gl_SubgroupSize >> 5' counts the subgroup's 32-lane words and is 0 where subgroups are narrower than 32; swiftshader (4 wide); lavapipe (8 wide); intel-xe (8 to 32 wide, chosen per shader) and arm-mali-valhall (16 wide) run narrower ones"
    uint counted = 0u;
    for (uint w = 0u; w < words; ++w) counted += bitCount(ballot[w]);
    uint first = subgroupBallot(positive).x;  // expect: subgroup-size-assumed not-reproduced "only the first word of a ballot is read: it holds lanes 0 to 31, and qualcomm-adreno-6xx (64 wide) runs wider subgroups" // expect-note: "the ballot is taken here"
    if (subgroupElect()) {
        atomicAdd(total[0], counted);
        atomicAdd(total[1], bitCount(first));
    }
    uint mine = 1u << gl_SubgroupInvocationID;  // expect: subgroup-size-assumed not-reproduced "a 32-bit shift by gl_SubgroupInvocationID is undefined for lanes 32 and up; qualcomm-adreno-6xx (64 wide) runs wider subgroups"
    if ((first & mine) != 0u) atomicAdd(total[2], 1u);
}
