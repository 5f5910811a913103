// HLSL: numthreads declares 128, which the host cannot change: a
// --workgroup-size of 1 does not apply, the file says so, and the neighbour
// read still races.
// fixture-options: --workgroup-size=1
// expect-file-note: "main declares 128x1x1: --workgroup-size gives 1x1x1, which applies only to sizes the host sets"
RWStructuredBuffer<float> data : register(u0);
groupshared float cache[128];

[numthreads(128, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    cache[tid.x] = data[dtid.x];
    // expect@+1: shared-memory-race confirmed "invocation 1 reads cache[0] while invocation 0 writes it" // expect-note@-1: "invocation 0 writes cache[0] here"
    float left = tid.x > 0 ? cache[tid.x - 1] : 0.0;
    GroupMemoryBarrierWithGroupSync();
    data[dtid.x] = cache[tid.x] - left;
}
