#version 450
// A 1-D stencil that orders its shared writes with memoryBarrierShared()
// alone, which does not wait for the other invocations.
// pitfall: insufficient-barrier
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
shared float line[65];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = min(gl_GlobalInvocationID.x, p.n - 1);
    line[tid] = src[i];
    if (tid == 63) line[64] = src[min(i + 1, p.n - 1)];
    memoryBarrierShared();
    if (gl_GlobalInvocationID.x < p.n) dst[gl_GlobalInvocationID.x] = 0.5 * (line[tid] + line[tid + 1]);
}
