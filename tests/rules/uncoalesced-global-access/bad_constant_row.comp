#version 450
// A 64-float row per invocation with the row length known: neighbours read
// 256 bytes apart, and write their results back the same way (one finding
// per line and buffer).
layout(local_size_x = 128) in;
layout(binding = 0) buffer Rows { float rows[]; };
const uint D = 64;

void main() {
    uint row = gl_GlobalInvocationID.x;
    float m = 0.0;
    for (uint col = 0; col < D; ++col) {
        m = max(m, abs(rows[row * D + col]));  // expect: uncoalesced-global-access confirmed "256 bytes apart, 64 times the 4 bytes each one reads; a subgroup touches 32 cache lines where 1 would do"
    }
    for (uint col = 0; col < D; ++col) {
        rows[row * D + col] /= m;  // expect: uncoalesced-global-access confirmed "read 'rows' 256 bytes"
    }
}
