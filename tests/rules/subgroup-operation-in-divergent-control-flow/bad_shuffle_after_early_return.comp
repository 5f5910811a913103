#version 450
// Lanes past n leave; the last lane that stays reads its right neighbour,
// which has gone: its value is undefined.
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float dx[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    float next = subgroupShuffleDown(x[i], 1u);  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupShuffleDown in control flow that depends on gl_GlobalInvocationID, so it may read a lane of its subgroup that is not active"
    // expect-note@-2: "never reach subgroupShuffleDown; the condition depends on gl_GlobalInvocationID"
    // expect-note@-4: "gl_GlobalInvocationID differs between the invocations of a subgroup"
    dx[i] = next - x[i];
}
