#version 450
// One atomic per subgroup for the lanes that have an item to append: the
// ballot of true, its counts, the election and the broadcast from the first
// active lane are about the active lanes, which is what they are for here.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) buffer Out { uint count; uint items[]; };

void main() {
    uint v = x[gl_GlobalInvocationID.x];
    if (v % 3u == 0u) {
        uvec4 lanes = subgroupBallot(true);
        uint base = 0u;
        if (subgroupElect()) base = atomicAdd(count, subgroupBallotBitCount(lanes));
        base = subgroupBroadcastFirst(base);
        items[base + subgroupBallotExclusiveBitCount(lanes)] = v;
    }
    if (subgroupElect()) atomicAdd(count, 0u);  // no subgroup operation under the election
}
