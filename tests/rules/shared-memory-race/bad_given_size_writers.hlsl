// HLSL: how many invocations store the total is a specialization constant.
// At its default, 1, one invocation writes; the host sets 4
// (--specialization), and then four write the same scalar.
// fixture-options: --specialization=WRITERS=4
[[vk::constant_id(0)]] const uint WRITERS = 1;
RWStructuredBuffer<float> data : register(u0);
groupshared float total;

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_GroupThreadID, uint3 gid : SV_GroupID) {  // expect: workgroup-count-over-limit
    if (tid.x < WRITERS) total = data[tid.x];  // expect: shared-memory-race confirmed "invocations 0 and 1 both write total"
    GroupMemoryBarrierWithGroupSync();
    data[gid.x] = total;
}
