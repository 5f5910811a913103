#version 450
#extension GL_KHR_shader_subgroup_basic : require
// The barrier hides in a helper that only some invocations call.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { float data[]; };
shared float cache[32];

void publish(uint slot, float value) {
    cache[slot] = value;
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_SubgroupInvocationID" // expect-note@+4: "never reach the barrier; the condition depends on gl_SubgroupInvocationID" // expect-note@+4: "gl_SubgroupInvocationID differs between the invocations of a workgroup"
}

void main() {
    if (gl_SubgroupInvocationID < 8) publish(gl_LocalInvocationID.x, data[gl_GlobalInvocationID.x]);  // expect: shared-memory-race "writes cache[7] while invocation 24 reads it" // expect-note@-5: "in 'publish', invocation 7 writes cache[7] here" // expect-note@+1: "invocation 24 reads cache[7] here"
    data[gl_GlobalInvocationID.x] = cache[31 - gl_LocalInvocationID.x];  // expect: uninitialized-shared-read "invocation 0 reads cache[31]" // expect-note@-6: "'cache' is written here"
}
