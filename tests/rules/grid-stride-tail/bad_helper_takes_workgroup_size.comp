#version 450
// The copy loop lives in a helper that takes the workgroup size as a
// parameter, and the loop's bound is the shared array's own length.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 32;
layout(binding = 0) buffer Data { uint data[]; };
layout(binding = 1) readonly buffer Source { uint source[]; };
shared uint lut[128];

void load_lut(uvec3 group) {
    for (uint i = 0; i < lut.length(); i += group.x) {
        lut[i + gl_LocalInvocationIndex] = source[i + gl_LocalInvocationIndex];  // expect: grid-stride-tail confirmed "covers an array of 128 in steps of the workgroup size along x (specialization constant 0, default 32), and only 'i' is checked against 128"
        // expect-note@-2: "'i' steps by the workgroup size"
    }
    barrier();
}

void main() {
    load_lut(gl_WorkGroupSize);
    data[gl_GlobalInvocationID.x] = lut[data[gl_GlobalInvocationID.x] & 127u];
}
