#version 450
// A workgroup walks several tiles and puts a barrier before every tile but the
// first, through a flag the loop sets: the barrier is there on every path that
// comes around the loop. Found as a false positive on llama.cpp's transpose.
layout(local_size_x = 32, local_size_y = 8) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer A { uint src[]; };
layout(binding = 1) writeonly buffer B { uint dst[]; };
layout(push_constant) uniform P { uint tiles_x, tiles_z; } p;
shared uint tile[32][33];

void transpose_tile(uint tx, uint tz) {
    uint base = (tz * p.tiles_x + tx) * 1024;
    for (uint y = 0; y < 4; ++y) {
        uint r = gl_LocalInvocationID.y + 8 * y;
        tile[r][gl_LocalInvocationID.x] = src[base + r * 32 + gl_LocalInvocationID.x];
    }
    barrier();
    for (uint y = 0; y < 4; ++y) {
        uint r = gl_LocalInvocationID.y + 8 * y;
        dst[base + r * 32 + gl_LocalInvocationID.x] = tile[gl_LocalInvocationID.x][r];
    }
}

void main() {
    bool need_barrier = false;
    for (uint z = gl_WorkGroupID.z; z < p.tiles_z; z += gl_NumWorkGroups.z) {
        for (uint x = gl_WorkGroupID.x; x < p.tiles_x; x += gl_NumWorkGroups.x) {
            if (need_barrier) barrier();
            need_barrier = true;
            transpose_tile(x, z);
        }
    }
}
