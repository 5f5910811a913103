#version 450
// A transpose through an unpadded 32x32 tile: the row writes are
// conflict-free, the column reads put all 32 invocations of a subgroup on
// one bank.
layout(local_size_x = 32, local_size_y = 8) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared float tile[32][32];

void main() {
    uint x = gl_WorkGroupID.x * 32 + gl_LocalInvocationID.x;
    uint y = gl_WorkGroupID.y * 32 + gl_LocalInvocationID.y;
    for (uint j = 0; j < 32; j += 8) {
        if (x < cols && y + j < rows) tile[gl_LocalInvocationID.y + j][gl_LocalInvocationID.x] = src[(y + j) * cols + x];
    }
    barrier();
    x = gl_WorkGroupID.y * 32 + gl_LocalInvocationID.x;
    y = gl_WorkGroupID.x * 32 + gl_LocalInvocationID.y;
    for (uint j = 0; j < 32; j += 8) {
        // expect@+1: shared-memory-bank-conflict confirmed "32-way bank conflict on 'tile': 32 invocations of a subgroup read different words of bank 0, 128 bytes apart"
        if (x < rows && y + j < cols) dst[(y + j) * rows + x] = tile[gl_LocalInvocationID.x][gl_LocalInvocationID.y + j];
    }
}
