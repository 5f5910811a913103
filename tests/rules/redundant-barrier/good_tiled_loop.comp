#version 450
// The barrier at the end of the loop body keeps the next iteration's tile
// writes from landing while other invocations still read this one's tile.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
shared float ta[16][16];
shared float tb[16][16];

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (uint k = 0; k < n; k += 16) {
        ta[ly][lx] = a[row * n + k + lx];
        tb[ly][lx] = b[(k + ly) * n + col];
        barrier();
        for (uint i = 0; i < 16; ++i) sum += ta[ly][i] * tb[i][lx];
        barrier();
    }
    c[row * n + col] = sum;
}
