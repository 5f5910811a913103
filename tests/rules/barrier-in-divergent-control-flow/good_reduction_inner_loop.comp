#version 450
// A tree reduction over several columns, as matrix-vector kernels write it:
// the divergent `if` holds a loop of its own, and the loop around it stays
// uniform. Found as a false positive on llama.cpp's mul_mat_vec shaders.
layout(local_size_x = 128) in;
layout(binding = 0) buffer D { float d[]; };
shared float partial[2][128];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint j = 0; j < 2; ++j) partial[j][tid] = d[j * 128 + tid];
    barrier();
    for (uint s = 64; s > 0; s >>= 1) {
        if (tid < s) {
            for (uint j = 0; j < 2; ++j) partial[j][tid] += partial[j][tid + s];
        }
        barrier();
    }
    if (tid == 0) d[0] = partial[0][0] + partial[1][0];
}
