#version 450
// A 16x16 tile per workgroup: each workgroup covers 16 rows and 16 columns,
// so a dispatch reaches over a million of each. (256 invocations: for
// targets that offer them.)
// fixture-options: --target=nvidia-ampere,amd-rdna3-wave32
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) buffer Pixels { vec4 pixels[]; };
layout(push_constant) uniform P { uint width; uint height; } p;

void main() {
    uvec2 xy = gl_WorkGroupID.xy * 16 + gl_LocalInvocationID.xy;
    if (xy.x >= p.width || xy.y >= p.height) return;
    pixels[xy.y * p.width + xy.x] *= 0.5;
}
