RWStructuredBuffer<float> data : register(u0);
groupshared float cache[64];
[numthreads(64, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID)half   cache[gtid.x] = data[dtid.x];
}
