#version 450
// An 8x16 workgroup: every flat index is below 128, and 2 * x + 16 * y
// reaches 254 at most, so both tests hold for every invocation and the
// barriers inside them are reached by the whole workgroup.
layout(local_size_x = 8, local_size_y = 16) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[128];

void main() {
    uint i = gl_LocalInvocationIndex;
    if (i < 128u) {
        tile[i] = data[gl_WorkGroupID.x * 128u + i];
        barrier();
    }
    float v = tile[127u - i];
    barrier();
    if (2u * gl_LocalInvocationID.x + 16u * gl_LocalInvocationID.y <= 254u) {
        tile[i] = 2.0 * v;
        barrier();
        data[gl_WorkGroupID.x * 128u + i] = tile[127u - i];
    }
}
