#version 450
// An in-place operation binds one buffer as both source and destination: the
// barrier orders the writes to `dst` before other invocations read `src`.
// Image accesses count like any other access.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Src { float src[]; };
layout(binding = 1) writeonly buffer Dst { float dst[]; };
layout(binding = 2, r32f) uniform image1D img;

void main() {
    uint i = gl_GlobalInvocationID.x;
    dst[i] = src[i] * 2.0;
    barrier();
    float neighbour = src[i ^ 1u];
    imageStore(img, int(i), vec4(neighbour));
    barrier();
    dst[i] = imageLoad(img, int(i ^ 1u)).x;
}
