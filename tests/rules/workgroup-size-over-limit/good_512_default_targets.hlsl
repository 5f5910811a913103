// No target declared: 512 threads exceed what Vulkan guarantees (128), but
// every default device whose limit has a source allows them, so nothing is
// reported.
RWStructuredBuffer<float> data : register(u0);

[numthreads(512, 1, 1)]  // expect: workgroup-size-over-limit inconclusive "swiftshader (128 invocations)"
void main(uint3 dtid : SV_DispatchThreadID) { data[dtid.x] = 0.0; }
