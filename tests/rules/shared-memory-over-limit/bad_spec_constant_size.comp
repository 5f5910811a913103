#version 450
// The array length is a specialization constant: counted at its default.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint TILE = 12000;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[TILE];  // expect: shared-memory-over-limit confirmed "48000 bytes"

void main() {
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[63 - gl_LocalInvocationID.x];
}
