#version 450
#pragma use_vulkan_memory_model
// Under the Vulkan memory model glslang gives memoryBarrierShared() QueueFamily
// scope; it still waits for no one.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    memoryBarrierShared();  // expect: insufficient-barrier confirmed "memoryBarrierShared() orders this invocation's accesses to 'tile'" // expect-note@-1: "'tile' is written here" // expect-note@+1: "'tile' is read here, possibly where another invocation has not written yet"
    x[gl_GlobalInvocationID.x] = tile[tid ^ 1u];
}
