#version 450
// The global index computed as a vector, and as a signed int: both are
// followed to the same start, and both loops step by one workgroup.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { int n; };

void main() {
    uvec3 global_id = gl_WorkGroupID * gl_WorkGroupSize + gl_LocalInvocationID;
    // expect@+1: grid-stride-mismatch confirmed "grid-stride loop over 'i' starts at the global invocation id"
    for (uint i = global_id.x; i < uint(n); i += 64u) {
        data[i] += 1.0;
    }
    // expect@+1: grid-stride-mismatch confirmed "grid-stride loop over 'j' starts at the global invocation id"
    for (int j = int(gl_GlobalInvocationID.x); j < n; j += int(gl_WorkGroupSize.x)) {
        data[j] *= 2.0;
    }
}
