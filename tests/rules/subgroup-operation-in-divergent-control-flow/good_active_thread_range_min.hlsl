// HLSL: the first 64 threads are whole waves on 32- and 64-wide GPUs, but half
// of one of Adreno's 128-wide waves. WaveActiveMin takes the minimum over the
// threads that run it, on every wave size.
RWStructuredBuffer<float> data : register(u0);

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID) {
    float v = data[dtid.x];
    if (gtid.x < 64) {
        data[dtid.x] = WaveActiveMin(v);
    }
}
