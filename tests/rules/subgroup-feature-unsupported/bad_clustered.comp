#version 450
// Clustered operations are missing on lavapipe and on Qualcomm's driver.
// fixture-options: --target=lavapipe,qualcomm-adreno-6xx,nvidia-ampere
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    float x = data[gl_GlobalInvocationID.x];
    data[gl_GlobalInvocationID.x] = subgroupClusteredAdd(x, 4);  // expect: subgroup-feature-unsupported "lavapipe and qualcomm-adreno-6xx do not support"
}
