#version 450
// The tile indexed by the global id has a length the application may
// specialize: at TILE = 256, a second workgroup along x indexes within it,
// so nothing in the kernel says the dispatch has one workgroup along x.
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint TILE = 128;
layout(binding = 0) readonly buffer In { float v[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
layout(push_constant) uniform P { uint n; };
shared float tile[TILE];

void main() {
    uint i0 = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint i = i0; i < n; i += gl_WorkGroupSize.x) acc += v[i];  // expect: grid-stride-mismatch confirmed "starts at the global invocation id but steps by the workgroup size (128)" // expect-note@-2: "the loop starts at gl_GlobalInvocationID.x" // expect-note: "each iteration adds 128"
    tile[i0] = acc;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        float total = 0.0;
        for (uint k = 0u; k < 128u; ++k) total += tile[k];
        sums[gl_WorkGroupID.x] = total;
    }
}
