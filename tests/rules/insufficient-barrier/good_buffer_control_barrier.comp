#version 450
#extension GL_KHR_memory_scope_semantics : require
// A control barrier with buffer semantics between passes over a storage
// buffer: no workgroup variable crosses it, so leaving workgroup memory out of
// its semantics is right.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Scratch { uint keys[]; };

void main() {
    uint i = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x * 128u;
    for (uint j = 1u; j < 128u; j <<= 1u) {
        uint a = keys[row + i];
        uint b = keys[row + (i ^ j)];
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        keys[row + i] = min(a, b);
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    }
}
