#version 450
// An 8x8 workgroup: gl_GlobalInvocationID.xy / 8 is the workgroup's tile, the
// same for all 64 invocations, so a branch on it is uniform.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint tiles_x; uint tiles_y; } pc;
shared float tile[64];
void main() {
    uvec2 t = gl_GlobalInvocationID.xy / 8u;
    uint row = gl_GlobalInvocationID.y >> 3;
    if (t.x >= pc.tiles_x || row >= pc.tiles_y) return;
    tile[gl_LocalInvocationIndex] = data[(t.y * pc.tiles_x + t.x) * 64u + gl_LocalInvocationIndex];
    barrier();
    data[(t.y * pc.tiles_x + t.x) * 64u + gl_LocalInvocationIndex] = tile[63u - gl_LocalInvocationIndex];
}
