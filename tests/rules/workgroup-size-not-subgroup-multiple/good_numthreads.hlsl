RWStructuredBuffer<float> data : register(u0);

[numthreads(256, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    data[id.x] *= 2.0;
}
