#version 450
// The reduction step `s` crosses two nested loops inside the divergent `if`:
// SSA form threads it through phis of phis, all copies of one uniform value.
// Found as a false positive on llama.cpp's mul_mat_vec_base.glsl.
layout(local_size_x = 128) in;
layout(binding = 0) buffer D { float d[]; };
layout(constant_id = 0) const uint BLOCK_SIZE = 128;
layout(constant_id = 1) const uint ROWS = 2;
shared float partial[2][2][128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint j = 0; j < 2; ++j)
        for (uint n = 0; n < ROWS; ++n) partial[j][n][tid] = d[(j * 2 + n) * 128 + tid];
    barrier();
    for (uint s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) {
            for (uint j = 0; j < 2; ++j)
                for (uint n = 0; n < ROWS; ++n) partial[j][n][tid] += partial[j][n][tid + s];
        }
        barrier();
    }
    if (tid == 0) d[0] = partial[0][0][0];
}
