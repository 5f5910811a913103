// HLSL: a row per group, its threads splitting the row; and a 2-D image
// indexed row-major with the thread's x fastest.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
cbuffer Params : register(b2) { uint width; uint height; };

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID) {
    uint row = gid.y;
    float sum = 0.0;
    for (uint i = gtid.y * 16 + gtid.x; i < width; i += 256) sum += input[row * width + i];
    if (dtid.x < width && dtid.y < height) output[dtid.y * width + dtid.x] = sum;
}
