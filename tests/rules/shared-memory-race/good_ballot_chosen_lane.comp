#version 450
// The first subgroup finds, by ballot, the lane whose prefix count crosses a
// limit; only that lane publishes it. Every lane of the subgroup gets the same
// lane index from subgroupBallotFindLSB, so one invocation writes. Found as a
// false positive on llama.cpp's top-k search.
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;  // the host sets the device's width
layout(binding = 0) buffer D { uint keys[]; };
layout(push_constant) uniform P { uint limit; };
shared uint counts[SUBGROUP_SIZE];
shared int chosen;

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid < SUBGROUP_SIZE) counts[tid] = 0;
    barrier();
    atomicAdd(counts[keys[gl_GlobalInvocationID.x] % SUBGROUP_SIZE], 1);
    barrier();
    if (tid < SUBGROUP_SIZE) {
        uint running = subgroupInclusiveAdd(counts[SUBGROUP_SIZE - 1 - tid]);
        uint lane = subgroupBallotFindLSB(subgroupBallot(running >= limit));
        if (tid == lane) chosen = int(SUBGROUP_SIZE - 1 - lane);
    }
    barrier();
    keys[gl_GlobalInvocationID.x] = uint(chosen);
}
