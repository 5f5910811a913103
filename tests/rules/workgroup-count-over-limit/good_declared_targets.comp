#version 450
// The same kernel for targets that all allow more than 65,535 workgroups
// along y: nothing to say.
// fixture-options: --target=apple-m1,apple-m2
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 data[]; };
layout(push_constant) uniform P { uint width; } p;

void main() {
    uint row = gl_WorkGroupID.y;
    for (uint c = gl_LocalInvocationID.x; c < p.width; c += 64) {
        data[row * p.width + c] *= 0.5;
    }
}
