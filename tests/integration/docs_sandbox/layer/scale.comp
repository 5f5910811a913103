#version 450
// The host sets the workgroup size (--workgroup-size).
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) buffer Data { float values[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) values[i] += 1.0;
}
