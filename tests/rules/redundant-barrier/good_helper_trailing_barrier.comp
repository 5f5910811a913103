#version 450
// A reduction helper ends with a barrier so that a second call may overwrite
// the scratch array. Called once, that barrier guards nothing here, but it is
// part of the helper's contract and stays silent.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
shared float scratch[128];

float workgroup_max(float v) {
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

void main() {
    float v = x[gl_GlobalInvocationID.x];
    float m = workgroup_max(v);
    y[gl_GlobalInvocationID.x] = v - m;
}
