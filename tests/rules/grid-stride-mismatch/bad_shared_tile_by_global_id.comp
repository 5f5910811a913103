#version 450
// The same sum with a tile twice as wide as the workgroup: a second workgroup
// along x indexes the tile's upper half, so nothing in the kernel says the
// dispatch has one workgroup along x, and the loop's start and step disagree.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float v[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float tile[256];

void main() {
    uint i0 = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint i = i0; i < n; i += gl_WorkGroupSize.x) acc += v[i];  // expect: grid-stride-mismatch confirmed "starts at the global invocation id but steps by the workgroup size (128)" // expect-note@-2: "the loop starts at gl_GlobalInvocationID.x" // expect-note: "each iteration adds 128"
    tile[i0] = acc;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        float total = 0.0;
        for (uint k = 0u; k < 128u; ++k) total += tile[gl_WorkGroupID.x * 128u + k];
        sums[gl_WorkGroupID.x] = total;
    }
}
