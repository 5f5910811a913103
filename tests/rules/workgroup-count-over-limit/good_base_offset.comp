#version 450
// The fix: the host splits the batches over several dispatches and passes
// the first batch of each in a push constant.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer D { float d[]; };
layout(push_constant) uniform P { uint n; uint batch_stride; uint base_batch; uint batches; } p;

void main() {
    const uint batch = gl_GlobalInvocationID.z + p.base_batch;
    const uint i = gl_GlobalInvocationID.x;
    if (i >= p.n || batch >= p.batches) return;
    d[batch * p.batch_stride + i] = a[batch * p.batch_stride + i] * 2.0;
}
