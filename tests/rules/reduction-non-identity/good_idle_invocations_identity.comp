#version 450
// Invocations past the end of the data take the identity of each reduction:
// +inf (the largest float) into a minimum, 0 into a sum. A value the data
// chooses (a threshold) is a computation, not an idle invocation's.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float distance[]; };
layout(binding = 1) writeonly buffer Nearest { float nearest[]; };
layout(binding = 2) writeonly buffer Total { float total[]; };
layout(binding = 3) writeonly buffer Above { float above[]; };
layout(push_constant) uniform P { uint n; float threshold; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float d = i < n ? distance[i] : 3.4028235e38;
    float s = i < n ? distance[i] : 0.0;
    float v = distance[min(i, n - 1u)];
    float a = v > threshold ? v : 0.0;
    d = subgroupMin(d);
    s = subgroupAdd(s);
    a = subgroupMax(a);
    if (subgroupElect()) {
        uint slot = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
        nearest[slot] = d;
        total[slot] = s;
        above[slot] = a;
    }
}
