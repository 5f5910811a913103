#version 450
// A 2-D kernel whose row loop starts at the global row but steps by the
// workgroup's height. The column is the global x index, which is fine.
layout(local_size_x = 32, local_size_y = 8) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint col = gl_GlobalInvocationID.x;
    if (col >= cols) return;
    // expect@+1: grid-stride-mismatch confirmed "workgroup size (8)"
    for (uint row = gl_GlobalInvocationID.y; row < rows; row += gl_WorkGroupSize.y) {
        data[row * cols + col] += 1.0;
    }
}
