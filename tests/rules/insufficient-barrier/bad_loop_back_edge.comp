#version 450
// The write after the memory barrier in one iteration is read before it in the
// next, by another invocation: the back edge crosses the barrier too.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint steps; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    float v = x[gl_GlobalInvocationID.x];
    for (uint i = 0; i < steps; ++i) {
        float left = tile[(tid + 63) % 64];  // expect: shared-memory-race "invocation 0 reads tile[63] while invocation 63 writes it" // expect-note@+3: "invocation 63 writes tile[63] here"
        // expect@+1: insufficient-barrier confirmed "memoryBarrierShared() orders this invocation's accesses to 'tile'" // expect-note@+2: "'tile' is written here, and the loop comes back to the barrier" // expect-note@-1: "in the next iteration of the loop, 'tile' is read here, possibly where another invocation has not written yet"
        memoryBarrierShared();
        tile[tid] = v + left;
    }
    x[gl_GlobalInvocationID.x] = v;
}
