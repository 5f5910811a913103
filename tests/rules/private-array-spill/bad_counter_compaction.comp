#version 450
// A counter stepped only where the data says so: which element `n` names
// after the loop depends on the values read, not on the iteration, so the
// array is indexed at run time however the loops are unrolled.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
    uint base = gl_GlobalInvocationID.x * 8u;
    float kept[8];  // expect: private-array-spill inconclusive "'kept' of 8 floats (32 bytes) is indexed dynamically"
    uint n = 0u;
    for (uint i = 0u; i < 8u; ++i) {
        float v = x[base + i];
        if (v > 0.0) {
            kept[n] = v;
            // expect-note@-1: "known only at run time"
            n++;
        }
    }
    float s = 0.0;
    for (uint i = 0u; i < 8u; ++i) s += i < n ? kept[i] : 0.0;
    y[gl_GlobalInvocationID.x] = s;
}
