#version 450
// 48 is a multiple of Mali's 16 and lavapipe's 8, not of a 32-wide SIMD group.
// fixture-options: --target=apple-m1,nvidia-ampere,arm-mali-valhall,lavapipe
layout(local_size_x = 48) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 48 invocations leaves 16 of 32 lanes idle in its last subgroup on apple-m1, nvidia-ampere (subgroup size 32)"
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2.0; }
