#version 450
// A block's four scales copied into a local array (declared with the array
// size on the type), all four read as arguments of one call, then one picked
// by the invocation's position: the copy is indexed at run time.
layout(local_size_x = 64) in;
struct Block { uint scales[4]; uint data[32]; };
layout(binding = 0) readonly buffer Blocks { Block blocks[]; };
layout(binding = 1) writeonly buffer Out { uint result[]; };

void main() {
    uint block = gl_GlobalInvocationID.x / 32;
    const uint[4] scales = blocks[block].scales;  // expect: private-array-spill inconclusive "'scales' of 4 uints (16 bytes)"
    uvec4 all_scales = uvec4(scales[0], scales[1], scales[2], scales[3]);
    uint scale = scales[(gl_GlobalInvocationID.x % 32) / 8];
    result[gl_GlobalInvocationID.x] = blocks[block].data[gl_GlobalInvocationID.x % 32] * scale + all_scales.w;
}
