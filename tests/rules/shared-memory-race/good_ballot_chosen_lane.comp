#version 450
// The first subgroup finds, by ballot, the lane whose prefix count crosses a
// limit; only that lane publishes it. Every lane of the subgroup gets the same
// lane index from subgroupBallotFindLSB, so one invocation writes. Found as a
// false positive on llama.cpp's top-k search.
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer D { uint keys[]; };
layout(push_constant) uniform P { uint limit; };
shared uint counts[16];
shared int chosen;

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < 16) counts[tid] = 0;
    barrier();
    atomicAdd(counts[keys[gl_GlobalInvocationID.x] % 16], 1);
    barrier();
    if (gl_SubgroupID == 0) {
        uint lane = gl_SubgroupInvocationID;
        uint running = subgroupInclusiveAdd(lane < 16 ? counts[15 - lane] : 0);
        uint found = subgroupBallotFindLSB(subgroupBallot(running >= limit));
        if (lane == found) chosen = int(15 - found);
    }
    barrier();
    keys[gl_GlobalInvocationID.x] = uint(chosen);
}
