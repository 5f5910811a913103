#version 450
// Every invocation that finds a negative value sets one flag: an index that
// depends on no invocation is a meeting point, not a mapping of invocations
// to elements.
layout(local_size_x = 16, local_size_y = 16) in;  // expect: workgroup-size-over-limit "swiftshader (128 invocations)"
layout(std430, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) buffer Flags { uint negative; uint last; };

void main() {
    uint i = gl_GlobalInvocationID.y * 4096u + gl_GlobalInvocationID.x;
    if (a[i] < 0.0) {
        negative = 1u;
        last = i;
    }
}
