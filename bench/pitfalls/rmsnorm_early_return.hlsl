// A row-wise RMS norm in HLSL whose invocations past the row's end return
// before the group syncs.
// pitfall: barrier-in-divergent-control-flow
struct Params { uint cols; float eps; };
[[vk::push_constant]] ConstantBuffer<Params> p;
[[vk::binding(0)]] StructuredBuffer<float> x;
[[vk::binding(1)]] RWStructuredBuffer<float> y;
groupshared float partial[64];

[numthreads(64, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 local : SV_GroupThreadID) {
    uint row = group.x;
    uint col = local.x;
    if (col >= p.cols) return;
    float v = x[row * p.cols + col];
    partial[col] = v * v;
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 32; s > 0; s >>= 1) {
        if (col < s) partial[col] += partial[col + s];
        GroupMemoryBarrierWithGroupSync();
    }
    y[row * p.cols + col] = v * rsqrt(partial[0] / float(p.cols) + p.eps);
}
