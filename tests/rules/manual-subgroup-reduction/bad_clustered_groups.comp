#version 450
// Quantization blocks of 8 values, one per 8 invocations: each block's
// absolute maximum by a shared-memory tree of three steps. Four blocks share
// a subgroup, so a clustered operation does them all at once.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float scales[]; };
shared float amax[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint iqs = tid % 8;
    amax[tid] = abs(x[gl_GlobalInvocationID.x]);
    barrier();
    // expect@+1: manual-subgroup-reduction "tree reductions over 'amax' each combine 8 values within one subgroup: subgroupClusteredMax()"
    for (uint s = 4; s > 0; s >>= 1) {
        if (iqs < s) amax[tid] = max(amax[tid], amax[tid + s]);
        barrier();
    }
    if (iqs == 0) scales[gl_GlobalInvocationID.x / 8] = amax[tid] / 127.0;
}
