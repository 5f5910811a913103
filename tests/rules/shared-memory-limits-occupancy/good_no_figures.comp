#version 450
// Targets without occupancy figures are not judged.
// fixture-options: --target=lavapipe,arm-mali-valhall
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[8192];

void main() {
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) tile[i] = data[i];
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) data[i] = tile[8191 - i];
}
