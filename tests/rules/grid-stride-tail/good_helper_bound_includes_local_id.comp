#version 450
// The copy loop lives in a helper that takes the workgroup size, and its
// condition checks the element each invocation touches, not the counter.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 32;
layout(binding = 0) buffer Data { uint data[]; };
layout(binding = 1) readonly buffer Source { uint source[]; };
shared uint lut[128];

void load_lut(uvec3 group) {
    for (uint i = 0; i + gl_LocalInvocationIndex < lut.length(); i += group.x) {
        lut[i + gl_LocalInvocationIndex] = source[i + gl_LocalInvocationIndex];
    }
    barrier();
}

void main() {
    load_lut(gl_WorkGroupSize);
    data[gl_GlobalInvocationID.x] = lut[data[gl_GlobalInvocationID.x] & 127u];
}
