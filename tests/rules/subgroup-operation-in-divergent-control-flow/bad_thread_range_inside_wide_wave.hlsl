// HLSL: the first 64 threads are whole waves on 32- and 64-wide GPUs, but half
// of one of Adreno's 128-wide waves.
RWStructuredBuffer<float> data : register(u0);

[numthreads(256, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float v = data[dtid.x];
    if (gtid.x < 64) {
        // expect@+1: subgroup-operation-in-divergent-control-flow "WaveActiveMin in control flow that depends on gl_LocalInvocationID" // expect-note@-1: "never reach WaveActiveMin; the condition depends on gl_LocalInvocationID" // expect-note@-1: "invocation index 64 falls inside a subgroup on qualcomm-adreno-6xx (subgroups of up to 128 invocations)" // expect-note@-3: "gl_LocalInvocationID differs between the invocations of a subgroup"
        data[dtid.x] = WaveActiveMin(v);
    }
}
