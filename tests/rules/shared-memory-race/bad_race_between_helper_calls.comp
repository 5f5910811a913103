#version 450
// Two helpers touch the tile: one sums an invocation's element with its
// neighbour's, one stores an element. Called back to back with no barrier,
// invocation 0 overwrites tile[0] while invocation 63 still reads it: the race
// is between the two calls, so it is reported at the second call.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64];

float neighbour_sum(uint i) {
    return tile[i] + tile[(i + 1u) % 64u];
}

void put(uint i, float v) {
    tile[i] = v;
}

void main() {
    uint t = gl_LocalInvocationID.x;
    put(t, data[gl_GlobalInvocationID.x]);
    barrier();
    float s = neighbour_sum(t);
    put(t, s);  // expect: shared-memory-race confirmed "data race on 'tile': invocation 0 writes tile[0] while invocation 63 reads it"
    // expect-note@-9: "in 'put', invocation 0 writes tile[0] here"
    // expect-note@-14: "in 'neighbour_sum', called at line 22, invocation 63 reads tile[0] here"
    barrier();
    data[gl_GlobalInvocationID.x] = tile[t];
}
