#version 450
// A 2-D tiled kernel: the tile loop starts at zero, the cooperative tile
// loads start at the local index and step by the workgroup size, and the
// output index comes from the 2-D global id.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint N; uint K; };
shared float tile[32][16];

void main() {
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    float sum = 0.0;
    for (uint t = 0; t < K; t += 16) {
        for (uint r = gl_LocalInvocationID.y; r < 32; r += gl_WorkGroupSize.y) {
            tile[r][gl_LocalInvocationID.x] = a[(gl_WorkGroupID.y * 32 + r) * K + t + gl_LocalInvocationID.x];
        }
        barrier();
        for (uint k = 0; k < 16; ++k) sum += tile[gl_LocalInvocationID.y][k];
        barrier();
    }
    c[row * N + col] = sum;
}
