#version 450
// A 32 x 8 tile transpose: % 32 and / 32 index the tile, and no subgroup
// is involved.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float b[]; };
layout(push_constant) uniform P { uint width; uint height; };
shared float tile[8][33];

void main() {
    uint tid = gl_LocalInvocationIndex;
    uint col = tid % 32;
    uint row = tid / 32;
    uint x = gl_WorkGroupID.x * 32 + col;
    uint y = gl_WorkGroupID.y * 8 + row;
    if (x < width && y < height) tile[row][col] = a[y * width + x];
    barrier();
    if (x < width && y < height) b[y * width + x] = 2.0 * tile[row][col];
}
