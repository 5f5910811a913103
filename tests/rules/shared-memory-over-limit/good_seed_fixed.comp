#version 450
// The seeds' fix: an 80x80 tile is 25,600 bytes and fits (on Apple GPUs it
// keeps one threadgroup per core: shared-memory-limits-occupancy says so).
// fixture-options: --target=lavapipe,arm-mali-valhall,qualcomm-adreno-6xx,nvidia-ampere
layout(local_size_x = 80) in;
layout(binding = 0) buffer M { float m[]; };
shared float shared_matrix[80 * 80];

void main() {
    uint row = gl_LocalInvocationID.x;
    for (uint c = 0; c < 80; ++c) shared_matrix[row * 80 + c] = m[row * 80 + c];
    barrier();
    for (uint c = 0; c < 80; ++c) m[row * 80 + c] = shared_matrix[c * 80 + row];
}
