#version 450
// 16 invocations fill a Mali subgroup and half of a 32-wide one.
// fixture-options: --target=apple-m1,nvidia-ampere,arm-mali-valhall
layout(local_size_x = 16) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 16 invocations is smaller than a subgroup on apple-m1, nvidia-ampere (subgroup size 32): 16 of 32 lanes idle"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
