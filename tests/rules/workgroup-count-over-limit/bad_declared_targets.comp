#version 450
// Declared targets: only those whose limit along y is 65,535 are named, and
// the finding stays a warning (klint cannot see how many rows there are).
// fixture-options: --target=apple-m1,nvidia-ampere
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { vec4 data[]; };
layout(push_constant) uniform P { uint width; } p;

void main() {
    uint row = gl_WorkGroupID.y;  // expect: workgroup-count-over-limit confirmed "nothing strides over gl_NumWorkGroups.y"
    // expect-note@-1: "maxComputeWorkGroupCount.y is 65,535 on nvidia-ampere"
    for (uint c = gl_LocalInvocationID.x; c < p.width; c += 64) {
        data[row * p.width + c] *= 0.5;  // expect-note: "the id indexes the run-time sized array here"
    }
}
