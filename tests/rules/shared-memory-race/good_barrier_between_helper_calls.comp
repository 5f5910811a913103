#version 450
// Two helpers touch the tile: one sums an invocation's element with its
// neighbour's, one stores an element; a barrier between the calls orders
// every read before the overwrite.
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
    barrier();
    put(t, s);
    data[gl_GlobalInvocationID.x] = tile[t];
}
