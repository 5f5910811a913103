#version 450
// The mask word is refreshed after a `continue` that invocations take on
// their own: those that skipped keep the previous word, so in the next
// iteration the word, and the barriers it guards, differ between invocations.
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
            if (((word >> ((block % 16) * 2)) & 3u) == 1u) {
                barrier();  // expect: barrier-in-divergent-control-flow inconclusive
                tile[tid] = x[block * 64 + tid];
                barrier();  // expect: barrier-in-divergent-control-flow inconclusive
                sum += tile[(tid + 1) % 64];
            }
            if (x[block * 64 + tid] <= 0.0) continue;
            if (word_index != block / 16) {
                word_index = block / 16;
                word = mask_words[word_index];
            }
        }
        sum += x[block * 64 + tid];
    }
    y[gl_GlobalInvocationID.x] = sum;
}
