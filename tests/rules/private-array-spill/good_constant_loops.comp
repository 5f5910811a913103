#version 450
// Four partial sums per invocation, walked by loops with constant bounds and
// no [[unroll]]: drivers unroll loops this small and keep acc in registers.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint K; };

void main() {
    float acc[4];
    for (int r = 0; r < 4; r++) acc[r] = 0.0;
    uint base = gl_GlobalInvocationID.x * 4;
    for (uint k = 0; k < K; ++k) {
        for (int r = 0; r < 4; r++) acc[r] += a[k * 4096 + base + uint(r)];
    }
    for (int r = 0; r < 4; r++) c[base + uint(r)] = acc[r];
}
