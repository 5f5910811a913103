#version 450
// Pitfall (seeds: exceeding shared memory limits): the SVD power iteration's
// `shared_Z[4096 * 64]` is 1 MiB of workgroup memory; devices offer 16 to 64 KiB,
// 32 KiB on Apple GPUs, Intel and lavapipe. The seeds' fix is shared_Z[250 * 32].
// klint: shared-memory-over-limit
layout(local_size_x = 32) in;
layout(binding = 0) buffer Q { float q[]; };
layout(push_constant) uniform Params { uint n; uint k; };
shared float shared_Z[4096 * 64];
shared float shared_proj[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint idx = tid; idx < n * k; idx += 32) shared_Z[idx] = q[idx];
    shared_proj[tid] = 0.0;
    barrier();
    for (uint idx = tid; idx < n * k; idx += 32) q[idx] = shared_Z[idx] + shared_proj[idx % 32];
}
