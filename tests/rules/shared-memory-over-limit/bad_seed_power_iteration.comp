#version 450
// The seeds' SVD power iteration before its fix: shared_Z[4096 * 64] is 1 MiB.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Q { float q[]; };
shared float shared_Z[4096 * 64];  // expect: shared-memory-over-limit confirmed "1048832 bytes"
shared float shared_proj[32];
shared float shared_norm[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    shared_Z[tid] = q[tid];
    shared_proj[tid] = 0.0;
    shared_norm[tid] = 0.0;
    barrier();
    q[tid] = shared_Z[31 - tid] + shared_proj[tid] + shared_norm[tid];
}
