// HLSL: a plus-shaped stencil with no loop attributes: a counter stepped in
// two constant loops, the second nested in a branch that a constant decides.
Texture2D<float> Height : register(t0);
RWTexture2D<float> Laplacian : register(u1);

[numthreads(16, 16, 1)]  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
void main(uint3 id : SV_DispatchThreadID) {
    float h[9];
    uint n = 0;
    for (int i = -2; i <= 2; i++) {
        h[n] = Height[int2(id.xy) + int2(i, 0)];
        n++;
    }
    for (int j = -2; j <= 2; j++) {
        if (j != 0) {
            h[n] = Height[int2(id.xy) + int2(0, j)];
            n++;
        }
    }
    Laplacian[id.xy] = h[0] + h[1] + h[3] + h[4] + h[5] + h[6] + h[7] + h[8] - 8 * h[2];
}
