#version 450
// fixture-options: --specialization=STRIDE=1
// The kernel of good_race_only_at_spec_default.comp, given the stride it runs
// with: each invocation writes two elements of its row, rows one element
// apart overlap, and neighbours write the same element.
layout(local_size_x = 64) in;
layout(constant_id = 1) const uint STRIDE = 1;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64 * 2];

void main() {
    uint row = gl_LocalInvocationID.x;
    for (uint k = 0; k < 2; ++k) tile[row * STRIDE + k] = data[gl_GlobalInvocationID.x * 2 + k];  // expect: shared-memory-race confirmed "invocations 0 and 1 both write tile[1] with no barrier between"
    barrier();
    data[gl_GlobalInvocationID.x] = tile[row * STRIDE];
}
