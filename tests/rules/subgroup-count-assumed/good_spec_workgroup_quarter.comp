#version 450
// A specialized workgroup size and an array of a quarter of it, through
// gl_WorkGroupSize: enough for subgroups of 4 and wider at any size.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(constant_id = 0) const uint BLOCK_SIZE = 256;
layout(binding = 0) buffer Data { float res[]; };
shared float partial[gl_WorkGroupSize.x / 4];

void main() {
    float s = subgroupAdd(res[gl_GlobalInvocationID.x]);
    if (subgroupElect()) partial[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationIndex == 0) {
        float t = 0.0;
        for (uint i = 0; i < gl_NumSubgroups; ++i) t += partial[i];
        res[gl_WorkGroupID.x] = t;
    }
}
