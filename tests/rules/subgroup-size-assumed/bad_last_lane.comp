#version 450
// A workgroup scan: each subgroup scans, its last lane publishes the
// subgroup's total. Lane 31 is the last lane only of a 32-wide subgroup.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { uint data[]; };
shared uint totals[gl_WorkGroupSize.x];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint scan = subgroupInclusiveAdd(data[i]);
    if (gl_SubgroupInvocationID == 31) totals[gl_SubgroupID] = scan;  // expect: subgroup-size-assumed confirmed "gl_SubgroupInvocationID == 31 (the last lane) assumes 32-wide subgroups"
    barrier();
    uint offset = 0;
    for (uint s = 0; s < gl_SubgroupID; ++s) offset += totals[s];
    data[i] = scan + offset;
}
