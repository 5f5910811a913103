#version 450
// A shared counter: reset, counted with atomics, then read by everyone.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float values[]; };
layout(binding = 1) writeonly buffer Out { uint counts[]; };
shared uint count;

void main() {
    uint tid = gl_LocalInvocationID.x;
    if (tid == 0) count = 0;
    barrier();
    if (values[gl_GlobalInvocationID.x] > 0.0) atomicAdd(count, 1u);
    barrier();
    if (tid == 0) counts[gl_WorkGroupID.x] = count;
}
