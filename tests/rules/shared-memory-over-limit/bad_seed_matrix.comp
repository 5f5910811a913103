#version 450
// The seeds' 100x100 float matrix: 40,000 bytes, over the 32 KiB limit.
layout(local_size_x = 100) in;
layout(binding = 0) buffer M { float m[]; };
shared float shared_matrix[100 * 100];  // expect: shared-memory-over-limit confirmed "40000 bytes"

void main() {
// expect-note@-3: "Vulkan guarantees 16384 bytes; klint checked its default devices"
// expect-note@-4: "'shared_matrix' takes 40000 bytes"
    uint row = gl_LocalInvocationID.x;
    for (uint c = 0; c < 100; ++c) shared_matrix[row * 100 + c] = m[row * 100 + c];  // expect: uncoalesced-global-access "read 'm' 400 bytes apart" // expect: shared-memory-bank-conflict "4-way"
    barrier();
    for (uint c = 0; c < 100; ++c) m[row * 100 + c] = shared_matrix[c * 100 + row];  // expect: uncoalesced-global-access "write 'm' 400 bytes apart"
}
