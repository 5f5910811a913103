#version 450
// Row softmax, one workgroup per row: max, then sum of exponentials, then
// normalise; shared-memory tree reductions with the barrier outside the `if`.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint n; };
shared float scratch[128];

float reduce_max(float v) {
    uint tid = gl_LocalInvocationID.x;
    scratch[tid] = v;
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) scratch[tid] = max(scratch[tid], scratch[tid + s]);
        barrier();
    }
    float result = scratch[0];
    barrier();
    return result;
}

float reduce_sum(float v) {
    uint tid = gl_LocalInvocationID.x;
    scratch[tid] = v;
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) scratch[tid] += scratch[tid + s];
        barrier();
    }
    float result = scratch[0];
    barrier();
    return result;
}

void main() {
    // Rows over x and y: a dispatch reaches past 65,535 rows.
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    float m = -3.402823e38;
    for (uint i = gl_LocalInvocationID.x; i < n; i += 128) m = max(m, x[row * n + i]);
    m = reduce_max(m);
    float s = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += 128) s += exp(x[row * n + i] - m);
    s = reduce_sum(s);
    for (uint i = gl_LocalInvocationID.x; i < n; i += 128) y[row * n + i] = exp(x[row * n + i] - m) / s;
}
