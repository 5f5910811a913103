#version 450
// A tree across the whole workgroup: its first steps span 64 and more
// invocations, so it is not a subgroup's reduction; it runs on any subgroup
// size without an extension.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float maxima[]; };
shared float m[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    m[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) m[tid] = max(m[tid], m[tid + s]);
        barrier();
    }
    if (tid == 0) maxima[gl_WorkGroupID.x] = m[0];
}
