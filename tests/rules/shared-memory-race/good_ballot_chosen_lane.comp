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
shared uint counts[32];
shared int chosen;

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < 32) counts[tid] = 0;
    barrier();
    atomicAdd(counts[keys[gl_GlobalInvocationID.x] % 32], 1);
    barrier();
    if (tid < gl_SubgroupSize && tid < 32) {
        uint running = subgroupInclusiveAdd(counts[31 - tid]);
        uint lane = subgroupBallotFindLSB(subgroupBallot(running >= limit));
        if (tid == lane) chosen = int(31 - lane);
    }
    barrier();
    keys[gl_GlobalInvocationID.x] = uint(chosen);
}
