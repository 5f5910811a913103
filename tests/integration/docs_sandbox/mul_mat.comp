#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Specialized by the host: BLOCK_SIZE, a flag, SUBGROUP_SIZE.
layout(constant_id = 0) const uint BLOCK_SIZE = 32;
layout(constant_id = 1) const bool TRANSPOSED = false;
layout(constant_id = 2) const uint SUBGROUP_SIZE = 32;
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer D { float d[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    d[i] = TRANSPOSED ? a[i] * float(SUBGROUP_SIZE) : a[i];
}
