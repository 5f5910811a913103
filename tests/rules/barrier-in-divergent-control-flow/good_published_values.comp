#version 450
// What a barrier publishes: one invocation computes a value, stores it and a
// barrier publishes it; a table every subgroup fills with the same values.
// Every invocation reads one shared location after the barrier, with no
// write between, so each read is the same everywhere.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { uint data[]; };
shared uint rows;
shared uint bounds[16];
shared uint tile[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid == 0u) {
        uint first = data[gl_WorkGroupID.x];
        rows = first * 3u + 1u;
    }
    for (uint i = gl_SubgroupInvocationID; i < 16u; i += gl_SubgroupSize) bounds[i] = data[i] + 1u;
    barrier();
    uint n = rows;
    uint limit = bounds[gl_WorkGroupID.x % 16u];
    for (uint r = 0u; r < n; ++r) {
        for (uint k = 0u; k < limit; ++k) {
            tile[tid] = r + k;
            barrier();
            data[gl_GlobalInvocationID.x] += tile[127u - tid];
            barrier();
        }
    }
}
