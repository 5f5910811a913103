// HLSL: the fix of a batch per group along z, a base from a constant buffer;
// and rows tiled 8 per group along y.
RWStructuredBuffer<float> d : register(u0);
cbuffer Params : register(b1) { uint width; uint base_batch; uint batch_stride; };

[numthreads(64, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 gtid : SV_GroupThreadID) {
    uint batch = group.z + base_batch;
    for (uint r = 0; r < 8; ++r) {
        uint row = group.y * 8 + r;
        d[batch * batch_stride + row * width + group.x * 64 + gtid.x] *= 2.0;
    }
}
