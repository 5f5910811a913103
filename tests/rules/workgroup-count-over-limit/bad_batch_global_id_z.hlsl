// HLSL: SV_DispatchThreadID.z with one thread along z is the group's batch.
StructuredBuffer<float> a : register(t0);
RWStructuredBuffer<float> d : register(u1);
cbuffer Params : register(b2) { uint n; uint batch_stride; };

[numthreads(128, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {  // expect: workgroup-count-over-limit confirmed "(SV_DispatchThreadID.z with numthreads z = 1)"
    if (dtid.x >= n) return;
    d[dtid.z * batch_stride + dtid.x] = a[dtid.z * batch_stride + dtid.x] * 2.0;
}
