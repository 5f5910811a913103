#version 450
// One workgroup row per batch: with local_size_z = 1, gl_GlobalInvocationID.z
// is gl_WorkGroupID.z, the same for every invocation of a workgroup, so the
// early return takes whole workgroups and every invocation left reaches the
// barrier.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint batches; } pc;
shared float tile[64];
void main() {
    uint batch = gl_GlobalInvocationID.z;
    if (batch >= pc.batches) return;
    tile[gl_LocalInvocationID.x] = data[batch * 64 + gl_LocalInvocationID.x];
    barrier();
    data[batch * 64 + gl_LocalInvocationID.x] = tile[63 - gl_LocalInvocationID.x];
}
