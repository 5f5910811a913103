#version 450
// Tile sizes from specialization constants, the array sized by an expression
// of them (an OpSpecConstantOp), as tiled matmul kernels declare their tiles:
// 2 * 64 * (64 + 1) * 8 bytes = 66,560 at the defaults.
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint BM = 64;
layout(constant_id = 1) const uint BK = 64;
layout(binding = 0) buffer D { vec2 d[]; };
shared vec2 tiles[2][BM * (BK + 1)];  // expect: shared-memory-over-limit confirmed "66560 bytes"

void main() {
    tiles[0][gl_LocalInvocationID.x] = d[gl_LocalInvocationID.x];
    barrier();
    d[gl_LocalInvocationID.x] = tiles[0][127 - gl_LocalInvocationID.x];
}
