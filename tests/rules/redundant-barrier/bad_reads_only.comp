#version 450
// A lookup table is filled once; between two later reads of it the barrier
// orders nothing.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { uint codes[]; };
layout(binding = 1) writeonly buffer Out { float values[]; };
shared float table[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint code = codes[gl_GlobalInvocationID.x];
    table[tid] = float(tid) * 0.5;
    barrier();
    float a = table[code & 63u];
    barrier();  // expect: redundant-barrier "barrier with no write to shared memory or buffers on either side"
    float b = table[(code >> 6) & 63u];
    barrier();
    table[tid] = a + b;
    barrier();
    values[gl_GlobalInvocationID.x] = table[63u - tid];
}
