#version 450
// The seeds' 100-thread rows: 4 subgroups of 32 (or 2 of 64) for 100
// invocations. On Mali (12 of 112) and lavapipe (4 of 104) the waste is
// under an eighth and not reported.
layout(local_size_x = 100) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 100 invocations leaves lanes idle in its last subgroup on amd-rdna2-wave32, apple-m1, nvidia-ampere (subgroup size 32, 28 of 32 lanes idle) and qualcomm-adreno-6xx (subgroup size 64, 28 of 64 lanes idle)"
layout(binding = 0) buffer M { float m[]; };
void main() {
    uint row = gl_WorkGroupID.x * 100 + gl_LocalInvocationID.x;
    m[row] = m[row] * 0.5;
}
