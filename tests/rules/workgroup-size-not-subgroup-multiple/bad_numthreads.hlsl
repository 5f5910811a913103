// HLSL: judged like GLSL's local_size.
RWStructuredBuffer<float> data : register(u0);

[numthreads(48, 1, 1)]  // expect: workgroup-size-not-subgroup-multiple "workgroup of 48 invocations leaves lanes idle in its last subgroup on amd-rdna2-wave32, apple-m1, nvidia-ampere (subgroup size 32, 16 of 32 lanes idle) and qualcomm-adreno-6xx (subgroup size 64, 16 of 64 lanes idle)"
void main(uint3 id : SV_DispatchThreadID) {
    data[id.x] *= 2.0;
}
