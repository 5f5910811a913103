#version 450
// Steps klint cannot tie to a workgroup or dispatch size stay silent: a
// stride from a push constant, a literal that is neither, and each
// invocation's own chunk.
layout(local_size_x = 256) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(binding = 0) buffer X { float x[]; };
layout(push_constant) uniform P { uint n; uint stride; };

void main() {
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) x[i] *= 2.0;
    for (uint i = gl_LocalInvocationID.x; i < n; i += stride) x[i] += 1.0;
    for (uint i = gl_GlobalInvocationID.x * 4; i < gl_GlobalInvocationID.x * 4 + 4; ++i) x[i] -= 1.0;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += 1048576) x[i] = -x[i];
}
