#version 450
// An editor's unsaved buffer, piped to klint --stdin-filename.
#ifndef TILE
#define TILE 64
#endif
layout(local_size_x = TILE) in;
layout(set = 0, binding = 0) buffer Data { float values[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) values[i] *= 2.0;
}
