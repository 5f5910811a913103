#version 450
// A quarter of the row in shared memory: four workgroups per Apple core. The
// comment naming row and shared memory is no declaration either.
// fixture-options: --target=apple-m1
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float row[2048];

void main() {
    for (uint i = gl_LocalInvocationID.x; i < 2048; i += 256) row[i] = data[i];
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < 2048; i += 256) data[i] = row[2047 - i];
}
