// HLSL: SV_DispatchThreadID stepped by the [numthreads] count.
RWStructuredBuffer<float> data : register(u0);
[[vk::push_constant]] cbuffer Params { uint n; };

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    // expect@+1: grid-stride-mismatch confirmed "starts at the global invocation id but steps by the workgroup size (64)"
    for (uint i = dtid.x; i < n; i += 64) {
        data[i] = data[i] * 2.0;
    }
}
