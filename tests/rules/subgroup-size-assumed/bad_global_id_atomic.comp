#version 450
// One atomic per subgroup, chosen as every 32nd global invocation: on 64-wide
// subgroups two invocations add the same count, on 16-wide half the counts
// are lost.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) buffer Count { uint positive; };

void main() {
    uint c = subgroupAdd(x[gl_GlobalInvocationID.x] > 0.0 ? 1u : 0u);
    if (gl_GlobalInvocationID.x % 32 == 0) atomicAdd(positive, c);  // expect: subgroup-size-assumed confirmed "'% 32' on gl_GlobalInvocationID.x"
}
