// HLSL: lanes past n return before the wave sum, which then covers the rest.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint n; };

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    uint tid = dtid.x;
    if (tid >= n) return;
    float total = WaveActiveSum(input[tid]);  // expect: subgroup-operation-in-divergent-control-flow "WaveActiveSum" // expect-note@-1: "never reach WaveActiveSum; the condition depends on gl_GlobalInvocationID" // expect-note@-3: "gl_GlobalInvocationID differs between the invocations of a subgroup"
    output[tid] = input[tid] / total;
}
