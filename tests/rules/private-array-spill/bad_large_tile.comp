#version 450
// A 32x4 register tile, fully unrolled so every index is a constant, but
// 512 bytes: more than an invocation keeps in registers.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Params { uint K; };

void main() {
    vec4 tile[32];  // expect: private-array-spill inconclusive "'tile' of 32 vec4s (512 bytes) is larger than 256 bytes"
    [[unroll]] for (int r = 0; r < 32; ++r) tile[r] = vec4(0.0);
    for (uint k = 0; k < K; ++k) {
        [[unroll]] for (int r = 0; r < 32; ++r) tile[r] += a[(k * 32 + uint(r)) * 64 + gl_LocalInvocationID.x];
    }
    [[unroll]] for (int r = 0; r < 32; ++r) c[gl_GlobalInvocationID.x * 32 + uint(r)] = tile[r];  // expect: uncoalesced-global-access "write 'c' 512 bytes apart"
}
