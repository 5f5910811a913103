#version 450
// local_size_z comes from a specialization constant: 1 by default, but the
// host may choose more, and then gl_GlobalInvocationID.z differs inside a
// workgroup and the early return splits it.
layout(local_size_x = 64, local_size_y = 1, local_size_z_id = 0) in;
layout(constant_id = 0) const uint DEPTH = 1;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint batches; } pc;
shared float tile[64];
void main() {
    if (gl_GlobalInvocationID.z >= pc.batches) return;
    tile[gl_LocalInvocationID.x] = data[gl_GlobalInvocationID.x];
    barrier();  // expect: barrier-in-divergent-control-flow inconclusive "gl_GlobalInvocationID"
    data[gl_GlobalInvocationID.x] = tile[63 - gl_LocalInvocationID.x];
}
