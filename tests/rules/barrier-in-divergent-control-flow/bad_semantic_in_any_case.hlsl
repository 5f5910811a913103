// HLSL: the ids come in through parameters whose semantics are spelled in
// another case, each on a line of its own. The note that says where the value
// differs points at the semantic, where it enters the kernel, not at the
// function's brace.
RWStructuredBuffer<float> data : register(u0);
groupshared float tile[128];

[numthreads(128, 1, 1)]
void main(
    uint3 gtid : SV_GroupThreadId,
    uint3 dtid : SV_DispatchThreadId)
{
    tile[gtid.x] = data[dtid.x];
    if (gtid.x < 64) {
        GroupMemoryBarrierWithGroupSync();  // expect: barrier-in-divergent-control-flow confirmed "depends on SV_GroupThreadID" // expect-note@-1: "never reach the barrier; the condition depends on SV_GroupThreadID" // expect-note@-5: "SV_GroupThreadID differs between the invocations of a workgroup"
        data[dtid.x] = tile[gtid.x + 64];
    }
}
