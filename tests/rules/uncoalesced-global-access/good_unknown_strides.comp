#version 450
// What the rule leaves alone: uniform addresses, one invocation per
// workgroup, indices read from memory, and run-time strides with no row walk
// (a tensor's element stride is one in the common case).
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) buffer Out { float dst[]; };
layout(binding = 2) readonly buffer Index { uint indices[]; };
layout(push_constant) uniform P { uint stride; uint offset; uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float scale = src[offset];                 // the same address for all
    float gathered = src[indices[i]];          // data-dependent
    dst[offset + i * stride] = scale * gathered;
    if (gl_LocalInvocationID.x == 0) dst[gl_WorkGroupID.x * 64] = scale;  // one invocation
    float wrapped = src[(i * 7) % n];          // klint cannot follow the modulo
    dst[i] += wrapped;
}
