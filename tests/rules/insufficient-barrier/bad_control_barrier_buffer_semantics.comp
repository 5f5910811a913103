#version 450
#extension GL_KHR_memory_scope_semantics : require
// controlBarrier() with only buffer storage semantics waits for the workgroup
// but does not make the shared writes visible.
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { uint x[]; };
shared uint flags[32];

void main() {
    uint tid = gl_LocalInvocationID.x;
    flags[tid] = x[gl_GlobalInvocationID.x] & 1u;
    // expect@+1: insufficient-barrier confirmed "controlBarrier()'s memory semantics do not include workgroup memory, but 'flags'" // expect-note@-1: "'flags' is written here" // expect-note@+2: "'flags' is read here; the barrier waits for the other invocations but need not make their writes to workgroup memory visible"
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    x[gl_GlobalInvocationID.x] = flags[tid ^ 1u];
}
