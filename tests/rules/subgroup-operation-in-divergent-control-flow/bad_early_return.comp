#version 450
// Invocations past the end leave early: the mean divides the sum of the
// lanes that stayed by every lane of the subgroup.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    // expect@+1: subgroup-operation-in-divergent-control-flow confirmed "subgroupAdd in control flow that depends on gl_GlobalInvocationID" // expect-note@-1: "never reach subgroupAdd; the condition depends on gl_GlobalInvocationID" // expect-note@-2: "gl_GlobalInvocationID differs between the invocations of a subgroup" // expect-note@+1: "the result meets gl_SubgroupSize here"
    float mean = subgroupAdd(x[i]) / float(gl_SubgroupSize);
    x[i] -= mean;
}
