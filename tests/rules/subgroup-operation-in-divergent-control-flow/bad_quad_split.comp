#version 450
// Quad operations under conditions that keep part of a quad: 66 invocations
// end inside the quad of 64 to 67; lanes 6 and 7 of every group of eight
// leave the quad 4 to 7 half active.
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };

void main() {
    uint idx = gl_LocalInvocationIndex;
    float v = x[gl_GlobalInvocationID.x];
    if (idx < 66u) v += subgroupQuadSwapVertical(v);  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupQuadSwapVertical in control flow that depends on gl_LocalInvocationIndex, so it may read a lane of its quad that is not active" // expect-note: "never reach subgroupQuadSwapVertical; the condition depends on gl_LocalInvocationIndex" // expect-note: "invocation index 66 is not a multiple of 4, so one quad has invocations on both sides of this comparison" // expect-note@-2: "gl_LocalInvocationIndex differs between the invocations of a subgroup"
    if ((idx & 7u) < 6u) {
        v += subgroupQuadBroadcast(v, 3u);  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupQuadBroadcast"
    }
    x[gl_GlobalInvocationID.x] = v;
}
