#version 450
// Conflict-free patterns: the same word for all (a broadcast), a row per
// subgroup, sequential-addressing reductions, two-way strides, vec4 rows, and
// bins chosen by the data.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
layout(binding = 1) readonly buffer Keys { uint keys[]; };
shared float s[512];
shared vec4 rows[256];
shared uint bins[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    bins[tid] = 0u;
    s[tid] = data[gl_GlobalInvocationID.x];
    s[tid + 256] = 0.0;
    rows[tid] = vec4(data[gl_GlobalInvocationID.x]);
    barrier();
    float first = s[0];                              // broadcast
    vec4 mine = rows[tid];                           // 16 bytes each, passes of 8
    float pair = s[2 * tid] + s[2 * tid + 1];        // two-way: silent
    atomicAdd(bins[keys[gl_GlobalInvocationID.x] & 255u], 1u);
    barrier();
    for (uint stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        barrier();
    }
    data[gl_GlobalInvocationID.x] = first + mine.x + pair + s[0] + float(bins[tid]);
}
