#version 450
// Padded tiles: a [32][33] tile read by columns, and a [16][17] tile in a
// 16x16 workgroup, stay on 32 different banks.
layout(local_size_x = 32, local_size_y = 8) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
shared float tile[32][33];
shared float small_tile[16][17];

void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    for (uint j = 0; j < 32; j += 8) tile[y + j][x] = data[(gl_WorkGroupID.x * 32 + y + j) * 1024 + x];
    barrier();
    float sum = 0.0;
    for (uint j = 0; j < 32; j += 8) sum += tile[x][y + j];
    uint index = y * 32 + x;
    if (index < 256) small_tile[index / 16][index % 16] = sum;
    barrier();
    if (index < 256) sum += small_tile[index % 16][index / 16];
    data[gl_GlobalInvocationID.y * 1024 + gl_GlobalInvocationID.x] = sum;
}
