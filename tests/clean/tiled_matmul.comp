#version 450
// C = A * B with 8x8 tiles in shared memory, padded to 9 columns against
// bank conflicts; out-of-range elements load as zero.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint M; uint N; uint K; };
shared float a_tile[8][9];
shared float b_tile[8][9];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.y * 8 + ty;
    uint col = gl_WorkGroupID.x * 8 + tx;
    float sum = 0.0;
    for (uint t = 0; t < K; t += 8) {
        a_tile[ty][tx] = (row < M && t + tx < K) ? a[row * K + t + tx] : 0.0;
        b_tile[ty][tx] = (t + ty < K && col < N) ? b[(t + ty) * N + col] : 0.0;
        barrier();
        for (uint k = 0; k < 8; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
        barrier();
    }
    if (row < M && col < N) c[row * N + col] = sum;
}
