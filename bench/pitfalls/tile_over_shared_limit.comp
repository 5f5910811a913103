#version 450
// A matrix-multiply tile sized for a desktop GPU's 48 KiB of shared memory:
// two 64x96 float tiles need 49152 bytes, more than the 32 KiB of many
// devices (lavapipe among them) and three times the 16 KiB Vulkan guarantees.
// pitfall: shared-memory-over-limit
layout(local_size_x = 16, local_size_y = 16) in;
layout(push_constant) uniform Params { uint n; } p;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
shared float tile_a[64][96];
shared float tile_b[64][96];

void main() {
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    for (uint i = gl_LocalInvocationIndex; i < 64 * 96; i += 256) {
        tile_a[i / 96][i % 96] = a[i];
        tile_b[i / 96][i % 96] = b[i];
    }
    barrier();
    float sum = 0.0;
    for (uint k = 0; k < 96; ++k) sum += tile_a[row % 64][k] * tile_b[col % 64][k];
    if (row < p.n && col < p.n) c[row * p.n + col] = sum;
}
