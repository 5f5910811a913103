#version 450
// Each invocation reads back only the elements it wrote itself: the barriers
// order nothing between invocations.
layout(local_size_x = 16, local_size_y = 4) in;
layout(binding = 0) buffer Data { vec4 x[]; };
shared vec4 tile[4][16];
shared float partial[256];

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint g = gl_GlobalInvocationID.y * 64 + gl_GlobalInvocationID.x;
    tile[ly][lx] = x[g];
    // expect@+1: redundant-barrier "barrier between accesses that no two invocations make to the same element"
    barrier();
    vec4 v = tile[ly][lx] * 2.0;
    for (uint i = 0; i < 4; ++i) partial[gl_LocalInvocationIndex * 4 + i] = v[i];  // expect: shared-memory-bank-conflict "4-way bank conflict on 'partial'"
    barrier();  // expect: redundant-barrier "no two invocations make to the same element"
    float sum = 0.0;
    for (uint i = 0; i < 4; ++i) sum += partial[gl_LocalInvocationIndex * 4 + i];  // expect: shared-memory-bank-conflict "4-way bank conflict on 'partial'"
    x[g] = vec4(sum);
}
