#version 450
// Pitfall (seeds: calculating shared memory size): a 100x100 float matrix is
// 40,000 bytes, over the 32 KiB a portable kernel may use. An 80x80 tile
// (25,600 bytes) fits.
// klint: shared-memory-over-limit, uncoalesced-global-access and a bank conflict
// (each invocation walks its own row of 100 elements)
layout(local_size_x = 100) in;
layout(binding = 0) buffer M { float m[]; };
shared float shared_matrix[100 * 100];

void main() {
    uint row = gl_LocalInvocationID.x;
    for (uint c = 0; c < 100; ++c) shared_matrix[row * 100 + c] = m[row * 100 + c];
    barrier();
    for (uint c = 0; c < 100; ++c) m[row * 100 + c] = shared_matrix[c * 100 + row];
}
