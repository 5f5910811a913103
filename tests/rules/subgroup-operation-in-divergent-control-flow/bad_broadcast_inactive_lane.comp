#version 450
// After the early return, lane 31 of the last subgroup may have left: the
// broadcast from it reads an inactive lane.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float x[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    float v = x[i];
    float last = subgroupBroadcast(v, 31u);  // expect: subgroup-operation-in-divergent-control-flow confirmed "subgroupBroadcast in control flow that depends on gl_GlobalInvocationID, so it may read a lane of its subgroup that is not active"
    x[i] = v - last;
}
