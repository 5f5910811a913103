#version 450
// One batch per workgroup along z: gl_GlobalInvocationID.z equals
// gl_WorkGroupID.z when the workgroup is one invocation deep, and the batch
// count is whatever the host dispatches.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer D { float d[]; };
layout(push_constant) uniform P { uint n; uint batch_stride; } p;

void main() {
    const uint batch = gl_GlobalInvocationID.z;  // expect: workgroup-count-over-limit confirmed "each workgroup along z covers one index of 'a' (gl_GlobalInvocationID.z with local_size_z = 1)"
    // expect-note@-1: "maxComputeWorkGroupCount.z is 65,535 on"
    // expect-note@-2: "Vulkan guarantees 65,535 workgroups along each axis"
    const uint i = gl_GlobalInvocationID.x;
    if (i >= p.n) return;
    float v = a[batch * p.batch_stride + i];  // expect-note: "the id indexes the run-time sized array here"
    d[batch * p.batch_stride + i] = v * 2.0;
}
