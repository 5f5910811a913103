#version 450
// Quad operations under conditions that every lane of a quad (lanes 4k to
// 4k + 3) agrees on, though the lanes of a subgroup do not: a range of local
// indexes ending at a multiple of 4, a bound on the quad's index, a bound on
// the index with its low two bits cleared, the lane's position in a group of
// eight compared at 4.
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint n; uint quads; };

void main() {
    uint idx = gl_LocalInvocationIndex;
    uint g = gl_GlobalInvocationID.x;
    float v = x[g];
    if (idx < 64u) v += subgroupQuadSwapHorizontal(v);
    if (gl_SubgroupInvocationID < 16u) v += subgroupQuadBroadcast(v, 2u);
    if ((g >> 2) < quads) v += subgroupQuadSwapDiagonal(v);
    if ((g & ~3u) < n) v += subgroupQuadSwapVertical(v);
    if ((gl_SubgroupInvocationID & 7u) < 4u) v += subgroupQuadSwapHorizontal(v);
    if (idx / 4u == n) v += subgroupQuadBroadcast(v, 0u);
    x[g] = v;
}
