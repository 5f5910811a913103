#version 450
// The seeds' (1, 33) shape as a workgroup: 33 invocations spill one invocation
// into a second subgroup on every target.
layout(local_size_x = 1, local_size_y = 33) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 33 invocations (1x33x1) leaves lanes idle in its last subgroup on lavapipe (subgroup size 8, 7 of 8 lanes idle); arm-mali-valhall (subgroup size 16, 15 of 16 lanes idle); amd-rdna2-wave32, apple-m1, nvidia-ampere (subgroup size 32, 31 of 32 lanes idle) and qualcomm-adreno-6xx (subgroup size 64, 31 of 64 lanes idle)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.y] *= 2.0; }
