// HLSL has no gl_NumWorkGroups: a loop from SV_GroupID.x that steps by the
// group count the host passes covers any number of rows.
RWStructuredBuffer<float> data : register(u0);
[[vk::push_constant]] cbuffer Params { uint width; uint rows; uint groups_x; };

[numthreads(64, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 gtid : SV_GroupThreadID) {
    for (uint row = group.x; row < rows; row += groups_x) {
        for (uint c = gtid.x; c < width; c += 64) data[row * width + c] = 0.0;
    }
}
