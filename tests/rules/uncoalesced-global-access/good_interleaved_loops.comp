#version 450
// Loops whose invocations interleave: neighbours are one element apart on
// every iteration, however far each invocation travels.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; uint rows; };

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 1024;
    // The lead's example: a fixed number of elements per invocation, 256 apart.
    for (uint i = 0; i < 4; ++i) y[base + tid + i * 256] = 2.0 * x[base + tid + i * 256];
    // The seeds' "strided" loop is the same pattern: coalesced.
    for (uint i = 0; i < n / 256; i++) y[tid + i * 256] += x[tid + i * 256];
    // A grid-stride loop over the whole dispatch.
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256) y[i] += 1.0;
    // A row per workgroup, its invocations splitting the row.
    float sum = 0.0;
    for (uint i = tid; i < n; i += 256) sum += x[gl_WorkGroupID.x * n + i];
    // Column-major walk: the loop moves by rows, the invocations along them.
    for (uint r = 0; r < rows; ++r) sum += x[r * n + gl_GlobalInvocationID.x];
    // Reversed order is still contiguous.
    y[n - 1 - gl_GlobalInvocationID.x] = sum;
}
