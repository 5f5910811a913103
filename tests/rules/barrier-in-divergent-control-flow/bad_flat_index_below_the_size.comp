#version 450
// An 8x16 workgroup whose test keeps only the first 64 flat indexes: the
// barrier inside waits for the other half.
layout(local_size_x = 8, local_size_y = 16) in;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[128];

void main() {
    uint i = gl_LocalInvocationIndex;
    if (i < 64u) {
        tile[i] = data[gl_WorkGroupID.x * 128u + i];
        barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_LocalInvocationIndex" // expect-note@-2: "never reach the barrier; the condition depends on gl_LocalInvocationIndex" // expect-note@-3: "gl_LocalInvocationIndex differs between the invocations of a workgroup"
        data[gl_WorkGroupID.x * 128u + i] = tile[63u - i];
    }
}
