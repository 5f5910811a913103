#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
// Each subgroup stages values in its own slice of shared memory and reads them
// back within the subgroup: a subgroup-scope control barrier is the barrier
// this needs, and it is not checked here.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float stage[64];

void main() {
    uint base = gl_SubgroupID * gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    stage[base + lane] = x[gl_GlobalInvocationID.x] * 2.0;
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    x[gl_GlobalInvocationID.x] = stage[base + (gl_SubgroupSize - 1u - lane)];
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
}
