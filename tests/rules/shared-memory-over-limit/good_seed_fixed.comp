#version 450
// The seeds' fix: an 80x80 tile fits (on Apple GPUs it keeps one threadgroup
// per core: shared-memory-limits-occupancy says so). Rows padded to 81
// floats (25,920 bytes) keep the transposed reads off one bank, and each
// invocation takes a column so that neighbours touch neighbouring elements.
// fixture-options: --target=lavapipe,arm-mali-valhall,qualcomm-adreno-6xx,nvidia-ampere
layout(local_size_x = 80) in;
layout(binding = 0) buffer M { float m[]; };
shared float shared_matrix[80 * 81];

void main() {
    uint column = gl_LocalInvocationID.x;
    for (uint r = 0; r < 80; ++r) shared_matrix[r * 81 + column] = m[r * 80 + column];
    barrier();
    for (uint r = 0; r < 80; ++r) m[r * 80 + column] = shared_matrix[column * 81 + r];
}
