#version 450
// Four slices along z each compute a partial value of one row and store it to
// the row's one output: the last slice to store wins.
layout(local_size_x = 64, local_size_z = 4) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(std430, binding = 0) readonly buffer In { float data[]; };
layout(std430, binding = 1) writeonly buffer Out { float row_sum[]; };

void main() {
    uint row = gl_WorkGroupID.x * 64u + gl_LocalInvocationID.x;
    float partial = 0.0;
    for (uint k = 0u; k < 16u; ++k) partial += data[(gl_LocalInvocationID.z * 16u + k) * 4096u + row];
    // expect@+1: global-memory-race confirmed "the 4 invocations along z of a 64x1x4 workgroup all write one element" // expect-note@+1: "the value written depends on gl_LocalInvocationID.z: the last writer wins"
    row_sum[row] = partial;
}
