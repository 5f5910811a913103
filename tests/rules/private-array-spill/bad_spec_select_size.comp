#version 450
// The array's length is a specialization-constant expression that chooses
// between two sizes, `(N > W) ? N / W : 1`: klint reads it at the defaults
// (16 floats), and the index from the data sends it to scratch memory.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint N = 512u;
layout(constant_id = 1) const uint W = 32u;
const uint PER_INVOCATION = (N > W) ? N / W : 1u;
layout(std430, binding = 0) buffer Data { float x[]; };

void main() {
    float kept[PER_INVOCATION];  // expect: private-array-spill inconclusive "'kept' of 16 floats (64 bytes) is indexed dynamically" // expect-note@+3: "indexed here with a value computed from gl_GlobalInvocationID"
    for (uint i = 0u; i < PER_INVOCATION; ++i) kept[i] = x[gl_GlobalInvocationID.x * PER_INVOCATION + i];
    uint pick = uint(x[gl_GlobalInvocationID.x]) % PER_INVOCATION;
    x[gl_GlobalInvocationID.x] = kept[pick];
}
