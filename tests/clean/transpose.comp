#version 450
// Matrix transpose through a 32x33 tile: reads and writes both coalesced, the
// padding column keeps the column reads off one bank.
layout(local_size_x = 32, local_size_y = 4) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared float tile[32][33];

void main() {
    uint x = gl_WorkGroupID.x * 32 + gl_LocalInvocationID.x;
    uint y = gl_WorkGroupID.y * 32 + gl_LocalInvocationID.y;
    for (uint j = 0; j < 32; j += 4) {
        if (x < cols && y + j < rows) tile[gl_LocalInvocationID.y + j][gl_LocalInvocationID.x] = src[(y + j) * cols + x];
    }
    barrier();
    x = gl_WorkGroupID.y * 32 + gl_LocalInvocationID.x;
    y = gl_WorkGroupID.x * 32 + gl_LocalInvocationID.y;
    for (uint j = 0; j < 32; j += 4) {
        if (x < rows && y + j < cols) dst[(y + j) * rows + x] = tile[gl_LocalInvocationID.x][gl_LocalInvocationID.y + j];
    }
}
