#version 450
// The same clustered sums with no target declared: the module declares the
// capability, and its host checks the device before it picks the shader, so
// klint's default devices judge nothing here.
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    float x = data[gl_GlobalInvocationID.x];
    data[gl_GlobalInvocationID.x] = subgroupClusteredAdd(x, 4);
}
