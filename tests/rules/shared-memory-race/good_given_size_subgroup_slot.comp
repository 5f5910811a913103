#version 450
// SUBGROUP_SIZE is set by the host to the device's subgroup width
// (--subgroup-size-constant): the first lane of each subgroup stores its sum
// in its subgroup's own slot, at every width the targets run (8 to 64).
// fixture-options: --subgroup-size-constant=SUBGROUP_SIZE
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(binding = 0) buffer Data { float data[]; };
shared float partial[8];

void main() {
    float s = subgroupAdd(data[gl_GlobalInvocationID.x]);
    uint lane = gl_LocalInvocationID.x % SUBGROUP_SIZE;
    if (lane == 0) partial[gl_LocalInvocationID.x / SUBGROUP_SIZE] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        float sum = 0.0;
        for (uint i = 0; i < 64 / SUBGROUP_SIZE; ++i) sum += partial[i];
        data[gl_WorkGroupID.x] = sum;
    }
}
