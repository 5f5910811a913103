#version 450
// The row stride is a specialization constant whose default (1) is a
// placeholder: each invocation writes two elements of its row, so at 1 the
// rows overlap. klint does not report a race that only the default of a
// constant it was not given makes; given the value (--specialization), it
// judges that value.
layout(local_size_x = 64) in;
layout(constant_id = 1) const uint STRIDE = 1;
layout(binding = 0) buffer Data { float data[]; };
shared float tile[64 * 2];

void main() {
    uint row = gl_LocalInvocationID.x;
    for (uint k = 0; k < 2; ++k) tile[row * STRIDE + k] = data[gl_GlobalInvocationID.x * 2 + k];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[row * STRIDE];
}
