#version 450
// fixture-options: --target=lavapipe,arm-mali-valhall,qualcomm-adreno-6xx
// Exactly 32 KiB: at the limit of these 32 KiB devices, not over it.
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[8192];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint i = tid; i < 8192; i += 256) tile[i] = data[i];
    barrier();
    for (uint i = tid; i < 8192; i += 256) data[i] = tile[8191 - i];
}
