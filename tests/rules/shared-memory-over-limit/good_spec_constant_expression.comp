#version 450
// The same declaration with defaults that fit: 2 * 32 * (16 + 1) * 8 = 8,704 bytes.
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint BM = 32;
layout(constant_id = 1) const uint BK = 16;
layout(binding = 0) buffer D { vec2 d[]; };
shared vec2 tiles[2][BM * (BK + 1)];

void main() {
    tiles[0][gl_LocalInvocationID.x] = d[gl_LocalInvocationID.x];
    barrier();
    d[gl_LocalInvocationID.x] = tiles[0][127 - gl_LocalInvocationID.x];
}
