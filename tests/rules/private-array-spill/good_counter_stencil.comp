#version 450
// A 3x3 neighbourhood gathered into a per-invocation array through a counter
// kept by hand: `n` steps once per iteration of two loops of constant trip
// count, so once the loops are unrolled every `taps[n]` is a constant index.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32f) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float taps[9];
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            taps[n++] = imageLoad(src, p + ivec2(dx, dy)).r;
        }
    }
    // A median of the nine, in place: every index is a constant after unrolling.
    for (int i = 0; i < 9; ++i) {
        for (int j = i + 1; j < 9; ++j) {
            float lo = min(taps[i], taps[j]);
            taps[j] = max(taps[i], taps[j]);
            taps[i] = lo;
        }
    }
    imageStore(dst, p, vec4(taps[4]));
}
