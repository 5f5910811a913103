// The seed's threadgroup_barrier(mem_flags::mem_device) guarding threadgroup
// memory, in HLSL: DeviceMemoryBarrierWithGroupSync() waits for the group but
// its semantics name only device (uniform and image) memory.
RWStructuredBuffer<float> input : register(u0);
RWStructuredBuffer<float> output : register(u1);
groupshared float shared_mem[256];

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    shared_mem[gtid.x] = input[dtid.x];
    // expect@+1: insufficient-barrier confirmed "DeviceMemoryBarrierWithGroupSync()'s memory semantics do not include workgroup memory, but 'shared_mem' is written before it and read after it" // expect-note@-1: "'shared_mem' is written here" // expect-note@+2: "'shared_mem' is read here; the barrier waits for the other invocations but need not make their writes to workgroup memory visible"
    DeviceMemoryBarrierWithGroupSync();
    output[dtid.x] = shared_mem[255 - gtid.x];
}
