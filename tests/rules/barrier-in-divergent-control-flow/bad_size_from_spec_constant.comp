#version 450
// The size comes from specialization constants the host sets: declared, so
// klint judges the kernel at the defaults, and an early return on x (64 wide
// by default) splits the workgroup.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint WIDTH = 64;
layout(constant_id = 1) const uint HEIGHT = 1;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint n; } pc;
shared float tile[64];
void main() {
    if (gl_GlobalInvocationID.x >= pc.n) return;
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_GlobalInvocationID"
    data[gl_GlobalInvocationID.x] = tile[63u - gl_LocalInvocationID.x];
}
