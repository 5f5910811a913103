#version 450
// A divergent `continue` ends only the current iteration: every invocation
// still reaches the barrier once per iteration of the uniform loop. Found as a
// false positive on llama.cpp's k-quant mul_mat_vec shaders.
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { float x[]; };
layout(push_constant) uniform P { uint valid; };
shared float staged[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint row = 0; row < 8; ++row) {
        barrier();
        staged[tid] = x[row * 64 + tid];
        barrier();
        if (tid >= valid) continue;
        for (uint j = 0; j < 2; ++j) x[row * 64 + tid] += staged[(tid + j) % 64] * float(row);
    }
}
