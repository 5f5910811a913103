#version 450
// A memory barrier after the last write of each iteration, and a full barrier
// at the top of every iteration but the first: the next iteration's reads
// wait at the full one, so the memory barrier is not what orders them.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint steps; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    float v = 0.0;
    for (uint i = 0u; i < steps; ++i) {
        if (i > 0u) barrier();
        v += tile[tid ^ 1u];
        barrier();
        tile[tid] = v;
        memoryBarrierShared();
    }
    x[gl_GlobalInvocationID.x] = v;
}
