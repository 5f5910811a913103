#version 450
// A kernel that uses subgroups for its row sums and % 32 for a tile of its
// own: the tile index never meets a subgroup result.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float b[]; };
layout(binding = 2) writeonly buffer Sums { float sums[]; };
shared float tile[8][32];
shared float partial[gl_WorkGroupSize.x];

void main() {
    uint tid = gl_LocalInvocationIndex;
    tile[tid / 32][tid % 32] = a[gl_GlobalInvocationID.x];
    barrier();
    float v = tile[(tid + 1) % 8][tid % 32];
    b[gl_GlobalInvocationID.x] = v;
    float s = subgroupAdd(v);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (tid == 0) {
        float total = 0.0;
        for (uint i = 0; i < gl_NumSubgroups; ++i) total += partial[i];
        sums[gl_WorkGroupID.x] = total;
    }
}
