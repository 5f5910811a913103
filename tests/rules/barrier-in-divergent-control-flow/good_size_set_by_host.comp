#version 450
// No local_size at all: the host patches the workgroup size into the module
// when it creates the pipeline, so whether the early return on z splits a
// workgroup depends on a size klint does not know; it judges nothing that
// depends on it (and says so once for the file).
layout(binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint depth; } pc;
shared float tile[64];
void main() {
    if (gl_GlobalInvocationID.z >= pc.depth) return;
    tile[gl_LocalInvocationIndex % 64u] = data[gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] = tile[63u - gl_LocalInvocationIndex % 64u];
}
// expect-file-note: "declares no workgroup size (local_size_x/y/z), so its host sets one"
