#version 450
// Blocks of a sparse mask are skipped by a word of two bits per block, read
// once per 16 blocks and kept across iterations. Invocations that have nothing
// to add `continue` on their own, after the barriers: the cached word still
// holds one value for all of them in the next iteration, though the `continue`
// and the `if (p.masked != 0)` around it merge it through different phis.
// Found as a false positive on llama.cpp's flash attention shader.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Words { uint mask_words[]; };
layout(binding = 1) readonly buffer X { float x[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint blocks; uint masked; } p;
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint word = 0;
    uint word_index = ~0u;
    float sum = 0.0;
    for (uint block = 0; block < p.blocks; ++block) {
        if (p.masked != 0) {
            if (word_index != block / 16) {
                word_index = block / 16;
                word = mask_words[word_index];
            }
            uint bits = (word >> ((block % 16) * 2)) & 3u;
            if (bits == 0u) continue;  // the whole block is masked out
            if (bits == 1u) {
                barrier();
                tile[tid] = x[block * 64 + tid];
                barrier();
                float v = tile[(tid + 1) % 64];
                if (v <= 0.0) continue;  // this invocation's own skip
                sum += v;
            }
        }
        sum += x[block * 64 + tid];
    }
    y[gl_GlobalInvocationID.x] = sum;
}
