RWStructuredBuffer<float> data : register(u0);

[numthreads(256, 1, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 id : SV_DispatchThreadID) {
    data[id.x] *= 2.0;
}
