#version 450
// The workgroup's width is a specialization constant set to 32 by the host
// (--workgroup-size): the rotation reads its neighbour after the barrier.
// fixture-options: --workgroup-size=32
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WIDTH = 1;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[(tid + 1) % WIDTH];
}
