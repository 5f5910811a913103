#version 450
// The histogram pass with its edge handled: every invocation reaches both
// barriers, and only those inside the image count a pixel.
layout(local_size_x = 8, local_size_y = 8) in;
struct Frame { float exposure; int width; int height; };
layout(set = 0, binding = 0) uniform Constants { Frame frame; };
layout(set = 0, binding = 1) readonly buffer Pixels { float luminance[]; };
layout(set = 0, binding = 2) buffer Bins { uint bins[16]; };
shared uint local_bins[16];

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    bool inside = all(lessThan(pixel, ivec2(frame.width, frame.height)));
    uint slot = gl_LocalInvocationIndex;
    if (slot < 16u) local_bins[slot] = 0u;
    barrier();
    if (inside) {
        float l = luminance[pixel.y * frame.width + pixel.x] * frame.exposure;
        atomicAdd(local_bins[uint(clamp(l, 0.0, 1.0) * 15.0)], 1u);
    }
    barrier();
    if (slot < 16u) atomicAdd(bins[slot], local_bins[slot]);
}
