#version 450
#extension GL_EXT_scalar_block_layout : require
// vec3 elements 12 bytes apart follow the scalar layout only: a feature the
// host enables, like a capability, so klint validates with it and says so.
// expect-file-note: "the module's block layout needs the scalarBlockLayout feature"
layout(local_size_x = 64) in;
layout(scalar, binding = 0) buffer Points { vec3 p[]; };

void main() {
    p[gl_GlobalInvocationID.x] *= 2.0;
}
