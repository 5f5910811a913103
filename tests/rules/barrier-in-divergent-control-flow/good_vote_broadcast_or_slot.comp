#version 450
// `one subgroup ? subgroupBroadcast(v, 0) : a slot published after a barrier`
// is the same in every invocation either way, so it bounds a loop with
// barriers in it. The workgroup's width is a specialization constant here:
// gl_WorkGroupSize.x and the constant that sets it name the same width.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WIDTH = 64u;
layout(binding = 0) buffer Data { uint data[]; };
shared uint count;
shared uint tile[1024];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint v = data[gl_GlobalInvocationID.x];
    if (tid == 0u) count = v;
    barrier();
    uint n = (gl_SubgroupSize == gl_WorkGroupSize.x) ? subgroupBroadcast(v, 0u) : count;
    for (uint i = 0u; i < n; ++i) {
        tile[tid] = i;
        barrier();
        data[gl_GlobalInvocationID.x] += tile[WIDTH - 1u - tid];
        barrier();
    }
    uint m = gl_SubgroupSize >= WIDTH ? subgroupBroadcastFirst(v + 1u) : count + 1u;
    if (m > 4u) {
        tile[tid] = m;
        barrier();
        data[gl_GlobalInvocationID.x] += tile[WIDTH - 1u - tid];
    }
}
