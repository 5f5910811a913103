#version 450
// After an early return, operations defined on the active lanes do what they
// are for: a sum of the values that exist, added once per subgroup by the
// elected lane; slots for compaction from a ballot or an exclusive sum; votes;
// the first active lane's value.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) buffer Out { uint count; uint total; float kept[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    float v = x[i];
    uint sum = subgroupAdd(uint(v));
    if (subgroupElect()) atomicAdd(total, sum);
    bool keep = v > 0.0;
    uvec4 ballot = subgroupBallot(keep);
    uint here = subgroupBallotBitCount(ballot);
    uint base = 0u;
    if (subgroupElect()) base = atomicAdd(count, here);
    base = subgroupBroadcastFirst(base);
    uint slot = base + subgroupExclusiveAdd(keep ? 1u : 0u);
    if (keep) kept[slot] = v;
    if (subgroupAll(v < 1.0) || subgroupAny(isnan(v))) kept[i] = 0.0;
}
