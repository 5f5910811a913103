#version 450
// 96 invocations copy a 256-entry table: the third iteration starts at 192,
// and invocations 64 to 95 index 256 to 287.
layout(local_size_x = 96) in;  // expect: workgroup-size-not-subgroup-multiple "workgroup of 96 invocations"
layout(binding = 0) buffer Data { float data[]; };
layout(binding = 1) readonly buffer Weights { float weights[256]; };
shared float w[256];

void main() {
    for (uint i = 0; i < 256u; i += 96u) {
        w[i + gl_LocalInvocationID.x] = weights[i + gl_LocalInvocationID.x];  // expect: grid-stride-tail confirmed "index i + gl_LocalInvocationID.x goes past the end of an array of 256: on the last iteration ('i' = 192) the invocations from 64 to 95 along x index 256 to 287"
        // expect-note@-2: "'i' steps by 96, the workgroup size along x, and only it is checked against 256"
        // expect-note@-2: "i + gl_LocalInvocationID.x indexes an array of 256 the same way"
    }
    barrier();
    data[gl_GlobalInvocationID.x] *= w[gl_LocalInvocationID.x];
}
