#version 450
// 96 is three 32-wide subgroups, but one and a half of Adreno's 64-wide waves.
layout(local_size_x = 96) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 96 invocations leaves 32 of 64 lanes idle in its last subgroup on qualcomm-adreno-6xx (subgroup size 64)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
