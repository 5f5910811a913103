#version 450
// The seeds' RMSNorm: invocations past the row length leave before the
// reduction, so the barrier waits for invocations that never come.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; float eps; };
shared float partial[256];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;  // expect: workgroup-count-over-limit
    if (tid >= D) return;
    float v = x[row * D + tid];
    partial[tid] = v * v;
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_LocalInvocationID" // expect-note@-3: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-5: "gl_LocalInvocationID differs between the invocations of a workgroup"
    for (uint s = 128; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];  // expect: uninitialized-shared-read "reads partial[255], which no invocation writes before it when D = 255" // expect-note@-3: "'partial' is written here, but not at partial[255] when D = 255"
        barrier();  // expect: barrier-in-divergent-control-flow confirmed // expect-note@-6: "never reach the barrier; the condition depends on gl_LocalInvocationID" // expect-note@-8: "gl_LocalInvocationID differs between the invocations of a workgroup"
    }
    y[row * D + tid] = v * inversesqrt(partial[0] / float(D) + eps);
}
