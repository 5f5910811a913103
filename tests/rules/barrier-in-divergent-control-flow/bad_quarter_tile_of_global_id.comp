#version 450
// The same 8x8 workgroup divided by 4 instead of 8: each workgroup holds four
// quarter tiles, so the early return splits it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint tiles_x; } pc;
shared float tile[64];
void main() {
    uvec2 t = gl_GlobalInvocationID.xy / 4u;
    if (t.x >= pc.tiles_x) return;
    uint i = gl_GlobalInvocationID.y * 4096u + gl_GlobalInvocationID.x;
    tile[gl_LocalInvocationIndex] = data[i];
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_GlobalInvocationID"
    data[i] = tile[63u - gl_LocalInvocationIndex];
}
