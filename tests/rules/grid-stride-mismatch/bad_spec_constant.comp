#version 450
// The workgroup size is a specialization constant; the loop steps by it.
layout(local_size_x_id = 0) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(constant_id = 0) const uint BLOCK_SIZE = 256;
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    // expect@+1: grid-stride-mismatch confirmed "workgroup size (256)"
    for (uint i = gl_GlobalInvocationID.x; i < n; i += BLOCK_SIZE) {
        data[i] = sqrt(data[i]);
    }
    // expect@+1: grid-stride-mismatch confirmed "workgroup size (256)"
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_WorkGroupSize.x) {
        data[i] = exp(data[i]);
    }
}
