#version 450
// The loop starts at the invocation's id: invocations run different numbers of
// iterations, so they pass the barrier a different number of times.
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint n; };
shared float staging[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += 64 * gl_NumWorkGroups.x) {
        staging[tid] = data[i];
        barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_GlobalInvocationID" // expect-note@-2: "this loop condition depends on gl_GlobalInvocationID, so invocations leave the loop at different iterations" // expect-note@-2: "gl_GlobalInvocationID differs between the invocations of a workgroup"
        data[i] = staging[63 - tid];
        barrier();  // expect: barrier-in-divergent-control-flow confirmed // expect-note@-4: "this loop condition depends on gl_GlobalInvocationID, so invocations leave the loop at different iterations" // expect-note@-4: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    }
}
