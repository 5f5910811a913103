#version 450
// Per-subgroup partial sums: the second barrier sits between reads of the
// partials and writes to buffers that nothing before it touches.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer A { float src[]; };
layout(binding = 1) writeonly buffer D { float dst[]; };
shared float partial[4];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float v = src[gl_GlobalInvocationID.x];
    if (tid % 32 == 31) partial[tid / 32] = v;
    barrier();
    for (uint j = 0; j < tid / 32; ++j) v += partial[j];
    // expect@+1: redundant-barrier "nothing written on one side is accessed on the other"
    barrier();
    dst[gl_GlobalInvocationID.x] = v;
}
