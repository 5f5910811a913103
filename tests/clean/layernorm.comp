#version 450
// LayerNorm, one workgroup per row: mean and variance by shared-memory tree
// reductions.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) readonly buffer G { float gamma[]; };
layout(binding = 2) readonly buffer B { float beta[]; };
layout(binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; float eps; };
shared float sums[128];

float workgroup_sum(float v) {
    uint tid = gl_LocalInvocationID.x;
    sums[tid] = v;
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) sums[tid] += sums[tid + s];
        barrier();
    }
    float total = sums[0];
    barrier();
    return total;
}

void main() {
    // Rows over x and y: a dispatch reaches past 65,535 rows.
    uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    float s = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < D; i += 128) s += x[row * D + i];
    float mean = workgroup_sum(s) / float(D);
    float v = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < D; i += 128) {
        float d = x[row * D + i] - mean;
        v += d * d;
    }
    float inv = inversesqrt(workgroup_sum(v) / float(D) + eps);
    for (uint i = gl_LocalInvocationID.x; i < D; i += 128) {
        y[row * D + i] = (x[row * D + i] - mean) * inv * gamma[i] + beta[i];
    }
}
