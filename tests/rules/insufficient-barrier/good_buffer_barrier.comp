#version 450
// memoryBarrierBuffer() orders this invocation's buffer writes; no workgroup
// variable crosses it. memoryBarrierShared() with only buffer traffic around
// it orders nothing shared either.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(binding = 1) buffer Flags { uint done[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    x[gid] = x[gid] * 2.0;
    memoryBarrierBuffer();
    done[gid] = 1u;
    memoryBarrierShared();
    x[gid] += float(done[gid]);
}
