#version 450
// The full barrier at the top of the loop runs only where the invocation's own
// id allows: invocation 0 reads its neighbour's slot of the last iteration
// with nothing but the memory barrier in between.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    float v = 0.0;
    for (uint i = 0u; i < 4u; ++i) {
        if (i > tid) barrier();  // expect: barrier-in-divergent-control-flow
        v += tile[tid ^ 1u];
        barrier();
        tile[tid] = v;
        memoryBarrierShared();  // expect: insufficient-barrier confirmed "memoryBarrierShared() orders this invocation's accesses to 'tile'" // expect-note@-1: "'tile' is written here" // expect-note@-3: "in the next iteration of the loop, 'tile' is read here"
    }
    x[gl_GlobalInvocationID.x] = v;
}
