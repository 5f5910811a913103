#version 450
// The slices add their partial values in shared memory, and one of them
// stores the row's sum: the store is under a condition on z.
layout(local_size_x = 64, local_size_z = 4) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(std430, binding = 0) readonly buffer In { float data[]; };
layout(std430, binding = 1) writeonly buffer Out { float row_sum[]; };
shared float partials[4][64];

void main() {
    uint x = gl_LocalInvocationID.x, z = gl_LocalInvocationID.z;
    uint row = gl_WorkGroupID.x * 64u + x;
    float partial = 0.0;
    for (uint k = 0u; k < 16u; ++k) partial += data[(z * 16u + k) * 4096u + row];
    partials[z][x] = partial;
    barrier();
    if (z == 0u) row_sum[row] = partials[0][x] + partials[1][x] + partials[2][x] + partials[3][x];
}
