#version 450
// Two barriers in a row: the second orders nothing the first did not. Only
// one of the pair is reported, since removing both would leave a race.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    barrier();  // expect: redundant-barrier "barrier with no shared-memory or buffer access since the previous barrier"
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
