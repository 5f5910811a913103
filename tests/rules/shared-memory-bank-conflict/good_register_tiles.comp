#version 450
// A tiled matrix multiply: each invocation reads a row of the A tile (the
// same word across a row of invocations) and a column slice of the B tile
// (consecutive words across invocations). tests/clean/tiled_matmul.comp
// pads; these tiles do not need it.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint N; };
shared float a_tile[16][16];
shared float b_tile[16][16];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.y * 16 + ty, col = gl_WorkGroupID.x * 16 + tx;
    float sum = 0.0;
    for (uint t = 0; t < N; t += 16) {
        a_tile[ty][tx] = a[row * N + t + tx];
        b_tile[ty][tx] = b[(t + ty) * N + col];
        barrier();
        for (uint k = 0; k < 16; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
        barrier();
    }
    c[row * N + col] = sum;
}
