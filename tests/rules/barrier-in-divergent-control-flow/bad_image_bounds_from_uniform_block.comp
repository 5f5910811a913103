#version 450
// A 2-D histogram pass: the image size lives in a uniform block of frame
// constants, and invocations past the image's edge leave before the
// workgroup's barriers. A run shows it only with a size that is not a
// multiple of the workgroup, so the size has to come from the block.
layout(local_size_x = 8, local_size_y = 8) in;
struct Frame { float exposure; int width; int height; };
layout(set = 0, binding = 0) uniform Constants { Frame frame; };
layout(set = 0, binding = 1) readonly buffer Pixels { float luminance[]; };
layout(set = 0, binding = 2) buffer Bins { uint bins[16]; };
shared uint local_bins[16];

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(pixel, ivec2(frame.width, frame.height)))) return;
    uint slot = gl_LocalInvocationIndex;
    if (slot < 16u) local_bins[slot] = 0u;
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_GlobalInvocationID" // expect-note@-3: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-4: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    float l = luminance[pixel.y * frame.width + pixel.x] * frame.exposure;
    atomicAdd(local_bins[uint(clamp(l, 0.0, 1.0) * 15.0)], 1u);
    barrier();  // expect: barrier-in-divergent-control-flow confirmed "gl_GlobalInvocationID" // expect-note@-6: "never reach the barrier; the condition depends on gl_GlobalInvocationID" // expect-note@-7: "gl_GlobalInvocationID differs between the invocations of a workgroup"
    if (slot < 16u) atomicAdd(bins[slot], local_bins[slot]);
}
