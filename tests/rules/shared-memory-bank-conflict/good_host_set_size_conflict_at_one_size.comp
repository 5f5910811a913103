#version 450
// The stride between neighbours grows with the size the host gives: none at
// 32 invocations, two-way at 64, four-way at 128. klint reports what it finds
// at every size it assumes, and this it finds at one.
layout(local_size_x_id = 0) in;
const uint WG = gl_WorkGroupSize.x;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[1024];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[(tid * (WG / 32)) % 1024];
}
