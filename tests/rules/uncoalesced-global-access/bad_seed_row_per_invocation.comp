#version 450
// The seeds' strided access: each invocation reads a row of its own
// (`x[tid * D + col]`), so the invocations of a subgroup read D elements apart.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint D; };

void main() {
    uint tid = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (uint col = 0; col < D; ++col) {
        sum += x[tid * D + col];  // expect: uncoalesced-global-access confirmed "along x read 'x' D elements (4 * D bytes) apart, a row each"
    }
    y[tid] = sum;  // one element per invocation: coalesced
}
