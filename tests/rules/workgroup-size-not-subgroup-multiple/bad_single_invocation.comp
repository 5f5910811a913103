#version 450
// One invocation per workgroup, dispatched once per element: every subgroup
// runs one lane, on every default target.
// expect@+1: workgroup-size-not-subgroup-multiple "workgroup of 1 invocation is smaller than a subgroup on swiftshader (subgroup size 4, 3 of 4 lanes idle); lavapipe (subgroup size 8, 7 of 8 lanes idle); arm-mali-valhall (subgroup size 16, 15 of 16 lanes idle); amd-rdna2-wave32, apple-m1, nvidia-ampere (subgroup size 32, 31 of 32 lanes idle) and qualcomm-adreno-6xx (subgroup size 64, 63 of 64 lanes idle)"
layout(local_size_x = 1) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_WorkGroupID.x] *= 2.0; }  // expect: workgroup-count-over-limit
