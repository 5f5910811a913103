#version 450
// Conditions that are the same for every invocation of a workgroup.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint MODE = 1;
layout(binding = 0) uniform Params { uint passes; uint flags; };
layout(binding = 1) buffer Data { float data[]; };
layout(binding = 2) readonly buffer Bias { float bias[]; };
layout(push_constant) uniform P { uint n; };
shared float tile[64];

void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = data[gl_GlobalInvocationID.x];
    barrier();
    // Each branch reverses the tile; both barriers in it are needed.
    if (gl_WorkGroupID.x < n) { float t = tile[63 - tid]; barrier(); tile[tid] = t; barrier(); }
    if (MODE == 1u) { float t = tile[63 - tid]; barrier(); tile[tid] = t; barrier(); }
    if ((flags & 1u) != 0u) { float t = tile[63 - tid]; barrier(); tile[tid] = t; barrier(); }
    for (uint p = 0; p < passes; ++p) {
        tile[tid] += 1.0;
        barrier();
    }
    if (gl_NumWorkGroups.x > 1u && bias[0] > 0.0) barrier();
    data[gl_GlobalInvocationID.x] = tile[63 - tid];
}
