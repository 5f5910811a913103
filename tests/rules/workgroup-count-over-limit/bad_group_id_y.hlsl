// HLSL: a row per group along y, read from SV_GroupID.
RWStructuredBuffer<float> data : register(u0);
[[vk::push_constant]] cbuffer Params { uint width; uint height; };

[numthreads(64, 1, 1)]
void main(uint3 group : SV_GroupID, uint3 gtid : SV_GroupThreadID) {  // expect: workgroup-count-over-limit confirmed "each workgroup along y covers one index of 'data' (SV_GroupID.y)"
    // expect-note@-1: "maxComputeWorkGroupCount.y is 65,535"
    // expect-note@-2: "Vulkan guarantees 65,535"
    for (uint c = gtid.x; c < width; c += 64) {
        data[group.y * width + c] = 0.0;  // expect-note: "the id indexes the run-time sized array here"
    }
}
