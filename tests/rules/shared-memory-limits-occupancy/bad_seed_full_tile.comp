#version 450
// 32 KiB of threadgroup memory: one threadgroup per core on the Apple GPUs
// whose per-core figure klint has (M1 and M2, about 60 KiB measured); M3 and
// M4 have no figure, so they are not judged.
// fixture-options: --target=apple-m1,apple-m2,apple-m3,apple-m4,nvidia-ampere
layout(local_size_x = 256) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[8192];  // expect: shared-memory-limits-occupancy inconclusive "apple-m1, apple-m2 stay resident"

void main() {
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) tile[i] = data[i];
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < 8192; i += 256) data[i] = tile[8191 - i];
}
