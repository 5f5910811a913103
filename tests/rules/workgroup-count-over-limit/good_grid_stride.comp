#version 450
// A loop over the batches that steps by the number of workgroups along z
// covers any batch count, whatever the host dispatches.
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { float d[]; };
layout(push_constant) uniform P { uint width; uint batches; } p;

void main() {
    for (uint b = gl_WorkGroupID.z; b < p.batches; b += gl_NumWorkGroups.z) {
        for (uint c = gl_LocalInvocationID.x; c < p.width; c += 64) {
            d[b * p.width + c] += 1.0;
        }
    }
}
