#version 450
// A workgroup of 32 invocations: however wide the device's subgroups, no lane
// from 32 up is ever active, so the first word of a ballot holds every vote
// and a shift by the lane stays inside the word.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Totals { uint total[]; };

void main() {
    bool positive = x[gl_GlobalInvocationID.x] > 0.0;
    uint votes = subgroupBallot(positive).x;
    uint mine = 1u << gl_SubgroupInvocationID;
    if ((votes & mine) != 0u) atomicAdd(total[0], 1u);
}
