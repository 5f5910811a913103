#version 450
// A blur that stages a whole row of 8192 floats in shared memory: 32 KiB per
// workgroup fits every desktop GPU, but an Apple M1 core, with about 60 KiB,
// then keeps one workgroup resident and nothing hides its memory latency.
// pitfall: shared-memory-limits-occupancy
layout(local_size_x = 256) in;
layout(push_constant) uniform Params { uint width; } p;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
shared float row[8192];

void main() {
    uint base = gl_WorkGroupID.x * 8192;
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) row[i] = src[base + i];
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) {
        float left = row[max(i, 1u) - 1], right = row[min(i + 1, 8191u)];
        if (base + i < p.width) dst[base + i] = (left + row[i] + right) / 3.0;
    }
}
