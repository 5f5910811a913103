#version 450
// A running median over a sliding window, each invocation sorting its own
// copy: the insertion sort indexes the window with values known only at run
// time, so the array cannot live in registers.
// pitfall: private-array-spill
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { uint n; uint width; } p;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n) return;
    float window[32];
    uint count = min(p.width, 32u);
    for (uint k = 0; k < count; ++k) {
        float v = src[min(i + k, p.n - 1)];
        uint j = k;
        while (j > 0 && window[j - 1] > v) {
            window[j] = window[j - 1];
            --j;
        }
        window[j] = v;
    }
    dst[i] = window[count / 2];
}
