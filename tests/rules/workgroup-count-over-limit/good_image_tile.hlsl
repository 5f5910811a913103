// HLSL: an 8x8 tile per group over an image of any size.
RWTexture2D<float4> image : register(u0);
[[vk::push_constant]] cbuffer Params { uint width; uint height; };

[numthreads(8, 8, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    if (dtid.x >= width || dtid.y >= height) return;
    image[dtid.xy] = image[dtid.xy] * 0.5;
}
