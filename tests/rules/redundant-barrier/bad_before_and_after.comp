#version 450
// A barrier before any memory access, and one after the last.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
shared float tile[128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    barrier();  // expect: redundant-barrier "barrier with no shared-memory or buffer access before it"
    tile[tid] = src[gl_GlobalInvocationID.x];
    barrier();
    dst[gl_GlobalInvocationID.x] = tile[127 - tid];
    barrier();  // expect: redundant-barrier "barrier with no shared-memory or buffer access after it"
}
