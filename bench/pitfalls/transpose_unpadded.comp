#version 450
// A tiled transpose whose 32x32 tile is read down a column.
// pitfall: shared-memory-bank-conflict
layout(local_size_x = 32, local_size_y = 8) in;
layout(push_constant) uniform Params { uint width; uint height; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
shared float tile[32][32];

void main() {
    uint x = gl_WorkGroupID.x * 32 + gl_LocalInvocationID.x;
    uint y0 = gl_WorkGroupID.y * 32;
    for (uint j = gl_LocalInvocationID.y; j < 32; j += 8) {
        if (x < p.width && y0 + j < p.height) tile[j][gl_LocalInvocationID.x] = src[(y0 + j) * p.width + x];
    }
    barrier();
    uint tx = gl_WorkGroupID.y * 32 + gl_LocalInvocationID.x;
    uint ty0 = gl_WorkGroupID.x * 32;
    for (uint j = gl_LocalInvocationID.y; j < 32; j += 8) {
        if (tx < p.height && ty0 + j < p.width) dst[(ty0 + j) * p.height + tx] = tile[gl_LocalInvocationID.x][j];
    }
}
