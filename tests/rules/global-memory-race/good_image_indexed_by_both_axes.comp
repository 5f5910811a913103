#version 450
// A two-dimensional workgroup over a two-dimensional array, in place: each
// invocation has its own element.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer Image { float pixel[]; };
layout(push_constant) uniform Size { uint width; uint height; };

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= width || p.y >= height) return;
    pixel[p.y * width + p.x] = pixel[p.y * width + p.x] * 0.5 + 0.25;
}
